package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/runtime"
)

// Target says which element an action is for: exactly one of a ref, a CSS
// selector (or a list tried in order), a text, a label, the focused
// element, or a viewport point.
type Target struct {
	Ref       string
	Selector  string
	Selectors []string
	Text      string
	Label     string
	// Exact makes Text and Label match the whole string.
	Exact bool
	// Within limits a text search to the first match of this selector.
	Within  string
	Focused bool
	// Point targets viewport coordinates (no element).
	Point *Point
}

// Point is a viewport position in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// String describes the target for messages.
func (t Target) String() string {
	switch {
	case t.Ref != "":
		return "ref " + t.Ref
	case t.Selector != "":
		return fmt.Sprintf("selector %q", t.Selector)
	case len(t.Selectors) > 0:
		return fmt.Sprintf("selectors %q", t.Selectors)
	case t.Text != "":
		return fmt.Sprintf("text %q", t.Text)
	case t.Label != "":
		return fmt.Sprintf("label %q", t.Label)
	case t.Focused:
		return "the focused element"
	case t.Point != nil:
		return fmt.Sprintf("point (%g, %g)", t.Point.X, t.Point.Y)
	}
	return "no target"
}

// Query is the text the agent searched for (for near matches).
func (t Target) Query() string {
	switch {
	case t.Text != "":
		return t.Text
	case t.Label != "":
		return t.Label
	case t.Selector != "":
		return t.Selector
	}
	return ""
}

// IsZero reports whether no target was given.
func (t Target) IsZero() bool {
	return t.Ref == "" && t.Selector == "" && len(t.Selectors) == 0 && t.Text == "" && t.Label == "" && !t.Focused && t.Point == nil
}

// NormalizeTarget turns a bare string into a ref or selector target.
func NormalizeTarget(s string) Target {
	s = strings.TrimSpace(s)
	if IsRef(s) {
		return Target{Ref: s}
	}
	return Target{Selector: s}
}

// locate finds the target element once (no waiting). It returns nil, nil
// when nothing matches yet; errors are final (invalid selector, stale ref).
func (p *Page) locate(ctx context.Context, t Target) (*Element, string, error) {
	return p.locateThen(ctx, t, nil)
}

// locateThen is locate with f (when not nil) sent right behind the lookup
// when the lookup is one call in the engine's world (see lookupFollow).
func (p *Page) locateThen(ctx context.Context, t Target, f *lookupFollow) (*Element, string, error) {
	switch {
	case t.Ref != "":
		el, err := p.resolveRefThen(ctx, t.Ref, f)
		return el, "", err
	case len(t.Selectors) > 0:
		for i, sel := range t.Selectors {
			el, _, err := p.locate(ctx, Target{Selector: sel})
			if err != nil {
				return nil, "", err
			}
			if el != nil {
				el.MatchedSelector, el.SelectorIndex = sel, i
				return el, sel, nil
			}
		}
		return nil, "", nil
	case t.Selector != "":
		if IsRef(t.Selector) {
			el, err := p.resolveRefThen(ctx, t.Selector, f)
			return el, "", err
		}
		// The engine checks the selector as it queries (one round trip):
		// an invalid one fails at once with InvalidSelectorError.
		el, err := p.engineElementThen(ctx, f, epFind, map[string]any{"selector": t.Selector})
		return el, t.Selector, err
	case t.Text != "":
		spec := map[string]any{"text": t.Text, "exact": t.Exact, "within": t.Within, "seq": p.seqArg()}
		el, err := p.engineElementThen(ctx, f, epFind, spec)
		if el == nil && err == nil {
			// Not in this document: perhaps in one of its frames.
			el, err = p.findInFrames(ctx, spec)
		}
		return el, "", err
	case t.Label != "":
		spec := map[string]any{"label": t.Label, "exact": t.Exact, "seq": p.seqArg()}
		el, err := p.engineElementThen(ctx, f, epFind, spec)
		if el == nil && err == nil {
			el, err = p.findInFrames(ctx, spec)
		}
		return el, "", err
	case t.Focused:
		el, err := p.engineElementThen(ctx, f, epFind, map[string]any{"focused": true})
		return el, "", err
	}
	return nil, "", Errorf(KindStepValidation, "no target: give a selector, ref, text or label")
}

// engineElement calls an engine method that returns an element (or null)
// and returns a handle on it. A find that matched several controls equally
// well answers an AmbiguousTargetError.
func (p *Page) engineElement(ctx context.Context, method engineEntry, args ...any) (*Element, error) {
	return p.engineElementThen(ctx, nil, method, args...)
}

// engineElementThen is engineElement with f (when not nil) sent right
// behind the call, in the same round trip.
func (p *Page) engineElementThen(ctx context.Context, f *lookupFollow, method engineEntry, args ...any) (*Element, error) {
	obj, err := p.engineObjectThen(ctx, f, method, args...)
	if err != nil || obj == nil {
		return nil, err
	}
	if obj.Subtype == "node" && obj.ObjectID != "" {
		return p.element(ctx, obj.ObjectID), nil
	}
	if obj.ObjectID == "" {
		return nil, nil
	}
	defer p.release(ctx, obj.ObjectID)
	var amb ambiguousFind
	if err := p.element(ctx, obj.ObjectID).Call(ctx, &amb, `(o) => o`); err != nil || len(amb.Ambiguous) == 0 {
		return nil, err
	}
	p.storeSeq(amb.Seq)
	return nil, amb.err(args)
}

// ambiguousFind is the engine's answer when a text or label matched
// several distinct controls equally well.
type ambiguousFind struct {
	Ambiguous  []map[string]any `json:"ambiguous"`
	MatchCount int              `json:"matchCount"`
	Rank       string           `json:"rank"`
	Seq        *seqJSON         `json:"seq"`
}

func (a ambiguousFind) err(args []any) error {
	what := "the target"
	if len(args) > 0 {
		if spec, ok := args[0].(map[string]any); ok {
			for _, k := range []string{"text", "label"} {
				if v, ok := spec[k]; ok {
					what = fmt.Sprintf("%s %q", k, v)
				}
			}
		}
	}
	var names []string
	for _, c := range a.Ambiguous {
		names = append(names, fmt.Sprintf("%v %q [%v]", c["role"], c["name"], c["ref"]))
	}
	e := Errorf(KindAmbiguousTarget, "%s matches %d different elements equally well (%s match): %s", what, a.MatchCount, a.Rank, strings.Join(names, ", "))
	e.Details = map[string]any{"candidates": a.Ambiguous}
	return e.WithHint("repeat the step with the ref of the one you mean, or a more specific text")
}

// engineObject is engineCall returning the result by reference.
func (p *Page) engineObject(ctx context.Context, method engineEntry, args ...any) (*runtime.RemoteObject, error) {
	return p.engineObjectThen(ctx, nil, method, args...)
}

// engineObjectThen is engineObject with f (when not nil) sent right behind
// the call, in the same round trip.
func (p *Page) engineObjectThen(ctx context.Context, f *lookupFollow, method engineEntry, args ...any) (*runtime.RemoteObject, error) {
	expr, err := engineCallExpr(method, args)
	if err != nil {
		return nil, err
	}
	for attempt := 0; attempt < 2; attempt++ {
		rs, errs := p.engineEvaluateAll(ctx, f.sentHook(), f.behind(runtime.EvaluateParams{Expression: expr})...)
		if errs[0] != nil {
			return nil, p.frameGone(ctx, errs[0])
		}
		res := rs[0]
		if res.ExceptionDetails != nil {
			return nil, engineError(method.name, &JSError{Text: exceptionText(res.ExceptionDetails)})
		}
		if res.Result.Type == "string" && string(res.Result.Value) == `"`+engineMissing+`"` {
			if err := p.installEngine(ctx); err != nil {
				return nil, fmt.Errorf("install the page engine: %w", err)
			}
			continue
		}
		f.read(rs, errs)
		return res.Result, nil
	}
	return nil, documentChanged(method.name)
}
