package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

var refPattern = lazyRegexp(`^s[0-9]+e[0-9]+$`)

// IsRef reports whether s has the shape of a ref (s1e4).
func IsRef(s string) bool { return refPattern().MatchString(s) }

// Element is a live handle on a page element, found by ref or selector:
// the element's remote object and the session of the frame that holds it,
// so that calls on it and its release go to that frame whichever frame
// the page is in by then.
type Element struct {
	// ObjectID is the element's remote object in the frame's context.
	ObjectID runtime.RemoteObjectID
	// sess is the session of the element's frame.
	sess *Session
	// Ref is the element's ref, when it was targeted by one.
	Ref string
	// ReResolved is true when the ref's original element had left the DOM
	// and a replacement with the same role and name was found.
	ReResolved bool
	// NameChanged is set when the ref's element is the same node but its
	// accessible name changed since the snapshot.
	NameChanged *NameChange
	// MatchedSelector is the entry of a selectors list that found the
	// element, and SelectorIndex its position (spec §6.6).
	MatchedSelector string
	SelectorIndex   int
}

// NameChange records an element whose accessible name changed.
type NameChange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// refResolution is the engine's answer to resolve(ref).
type refResolution struct {
	Status      string      `json:"status"`
	NameChanged *NameChange `json:"nameChanged"`
	Candidates  int         `json:"candidates"`
	Role        string      `json:"role"`
	Name        string      `json:"name"`
}

const resolveJS = `(ref) => {
  const S = window.__cdpSkill;
  if (!S || !S.resolve) return {status: "unknown"};
  S.lastElement = null;
  const r = S.resolve(ref);
  S.lastResolve = {status: r.status, nameChanged: r.nameChanged, candidates: r.candidates, role: r.role, name: r.name};
  S.lastElement = r.el || null;
  return r.el || S.lastResolve;
}`

// ResolveRef finds the element of a ref. A ref whose element left the DOM is
// re-resolved to an element with the same role and name; when none (or
// several) match, it fails with StaleElementError rather than act on
// another element.
//
// A ref taken inside an iframe works from anywhere: the step of ctx moves
// into the ref's frame (see enterRefFrame), and a ref of the top document
// used while a frame is selected is found there.
func (p *Page) ResolveRef(ctx context.Context, ref string) (*Element, error) {
	return p.resolveRefThen(ctx, ref, nil)
}

// resolveRefThen is ResolveRef with f (when not nil) sent right behind the
// resolve, in the same round trip.
func (p *Page) resolveRefThen(ctx context.Context, ref string, f *lookupFollow) (*Element, error) {
	if err := p.enterRefFrame(ctx, ref); err != nil {
		return nil, err
	}
	el, err := p.resolveRefHere(ctx, ref, f)
	if f := p.frameIn(ctx); f != nil && err != nil && KindOf(err) == KindContextDestroyed {
		// The frame's document or renderer went away under the ref.
		return nil, Errorf(KindStaleElement, "ref %s is in a frame %s that is gone: it navigated or was removed", ref, f.describe()).
			WithHint("take a new snapshot and use its refs")
	}
	if KindOf(err) != KindStaleElement || p.frameIn(ctx) == nil {
		return el, err
	}
	if _, taken := p.refFrame(ref); taken {
		return el, err
	}
	// Not a frame's ref: perhaps the top document's, where the step then
	// acts.
	top, terr := p.resolveRefHere(inFrame(ctx, nil), ref, f)
	if terr != nil {
		return el, err
	}
	moveTo(ctx, nil)
	return top, nil
}

// resolveRefHere resolves a ref in the current frame's document.
func (p *Page) resolveRefHere(ctx context.Context, ref string, f *lookupFollow) (*Element, error) {
	expr, err := callExpr(resolveJS, ref)
	if err != nil {
		return nil, err
	}
	// The element and what the lookup found out about it come back in
	// one round trip.
	rs, errs := p.engineEvaluateAll(ctx, f.sentHook(), f.behind(runtime.EvaluateParams{Expression: expr},
		runtime.EvaluateParams{Expression: "window.__cdpSkill && window.__cdpSkill.lastResolve", ReturnByValue: ptr(true)})...)
	for _, err := range errs[:2] {
		if err != nil {
			return nil, err
		}
	}
	f.read(rs, errs)
	res, infoRes := rs[0], rs[1]
	if res.ExceptionDetails != nil {
		return nil, &JSError{Text: exceptionText(res.ExceptionDetails)}
	}
	var info refResolution
	if infoRes.ExceptionDetails == nil && infoRes.Result != nil && len(infoRes.Result.Value) > 0 {
		json.Unmarshal(infoRes.Result.Value, &info)
	}
	obj := res.Result
	if obj.Subtype == "node" && obj.ObjectID != "" {
		el := p.element(ctx, obj.ObjectID)
		el.Ref = ref
		el.ReResolved = info.Status == "reResolved"
		el.NameChanged = info.NameChanged
		return el, nil
	}
	if obj.ObjectID != "" {
		p.release(ctx, obj.ObjectID)
	}
	if info.Status == "" || info.Status == "unknown" {
		if err := p.foreignRefError(ref); err != nil {
			return nil, err
		}
	}
	return nil, refError(ref, info)
}

// foreignRefError explains a ref that another tab issued (nil when the
// ref is not known to come from one).
func (p *Page) foreignRefError(ref string) error {
	var snap, elem int
	if _, err := fmt.Sscanf(ref, "s%de%d", &snap, &elem); err != nil {
		return nil
	}
	owner := state.SnapshotOwner(snap)
	if owner == "" || owner == string(p.TargetID) {
		return nil
	}
	from := owner
	if reg, err := state.OpenRegistry(); err == nil {
		if a := reg.AliasOf(owner); a != "" {
			from = a
		}
	}
	return Errorf(KindStaleElement, "ref %s belongs to another tab (%s), not to this one: refs name elements of the tab whose snapshot showed them, and nothing was done here", ref, from).
		WithHint(`to act on that element, send the step with "tab": %q; to act here, take a snapshot of this tab and use its refs`, from)
}

func refError(ref string, info refResolution) error {
	var e *Error
	switch info.Status {
	case "stale":
		e = Errorf(KindStaleElement, "ref %s (%s %q) is stale: its element left the page and no element with the same role and name is there now", ref, info.Role, info.Name).
			WithHint("take a new snapshot and use the new refs")
	case "ambiguous":
		e = Errorf(KindStaleElement, "ref %s (%s %q) is stale and %d elements now have that role and name, so it cannot say which one you meant", ref, info.Role, info.Name, info.Candidates).
			WithHint("take a new snapshot and use the new refs")
	}
	if e != nil {
		e.Details = map[string]any{"query": info.Name}
		return e
	}
	return Errorf(KindStaleElement, "ref %s is not known on this page (it belongs to an earlier page or was never issued)", ref).
		WithHint("take a snapshot of the current page and use its refs")
}

// element returns a handle on the remote object id of ctx's frame.
func (p *Page) element(ctx context.Context, id runtime.RemoteObjectID) *Element {
	sess, _ := p.exec(ctx)
	return &Element{ObjectID: id, sess: sess}
}

// release frees a remote object of ctx's frame; errors do not matter,
// and nothing waits for it.
func (p *Page) release(ctx context.Context, id runtime.RemoteObjectID) {
	sess, _ := p.exec(ctx)
	releaseIn(sess, id)
}

// release frees the element's remote object (see Page.release).
func (el *Element) release() { releaseIn(el.sess, el.ObjectID) }

// releaseIn frees a remote object of sess without waiting.
func releaseIn(sess *Session, id runtime.RemoteObjectID) {
	ctx, cancel := context.WithTimeout(context.Background(), releaseWait)
	defer cancel()
	// Sent, not waited for: nothing depends on it, and its round trip
	// would delay every action's answer. Later commands come after it.
	sess.Send(ctx, runtime.CommandReleaseObject, runtime.ReleaseObjectParams{ObjectID: id})
}

// releaseWait bounds cleanup calls that run without the step's context.
const releaseWait = time.Second

// Call calls fn with the element as its first argument (and args after
// it) in the element's frame and decodes the result into out (when not
// nil).
func (el *Element) Call(ctx context.Context, out any, fn string, args ...any) error {
	wait, err := el.Send(ctx, fn, args...)
	if err != nil {
		return err
	}
	return wait(ctx, out)
}

// call calls the engine's entry point ep with the element as its first
// argument (and args after it) in the element's frame, and decodes the
// result into out (when not nil): the element-bound engineCall. The engine
// is the one installed in the element's world.
func (el *Element) call(ctx context.Context, out any, ep engineEntry, args ...any) error {
	return el.Call(ctx, out, ep.onElement(), args...)
}

// send is call that returns once the call is written (see Send).
func (el *Element) send(ctx context.Context, ep engineEntry, args ...any) (func(ctx context.Context, out any) error, error) {
	return el.Send(ctx, ep.onElement(), args...)
}

// onElement is the function Call runs for ep: the entry point called with
// the element and the call's arguments.
func (e engineEntry) onElement() string {
	return "(el, ...args) => " + e.js() + "(el, ...args)"
}

// Send is Call that returns once the call is written: the returned func
// waits for its answer. Calls sent in turn run in the page in that order,
// each after the one before (its promise's microtasks included).
func (el *Element) Send(ctx context.Context, fn string, args ...any) (func(ctx context.Context, out any) error, error) {
	// The arguments travel as one array: cdproto omits a CallArgument
	// value that encodes to {}, [] or "", which would reach the page as
	// undefined, and a non-empty array survives that.
	if args == nil {
		args = []any{}
	}
	data, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("encode arguments: %w", err)
	}
	callArgs := []*runtime.CallArgument{{ObjectID: el.ObjectID}, {Value: data}}
	wait, err := el.sess.Send(ctx, runtime.CommandCallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: "function(el, args) { return (" + fn + ")(el, ...(args || [])); }",
		ObjectID:            el.ObjectID,
		Arguments:           callArgs,
		ReturnByValue:       ptr(true),
		AwaitPromise:        ptr(true),
		UserGesture:         ptr(true),
	})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, out any) error {
		var res runtime.CallFunctionOnResult
		if err := wait(ctx, &res); err != nil {
			return err
		}
		if res.ExceptionDetails != nil {
			return &JSError{Text: exceptionText(res.ExceptionDetails)}
		}
		if out != nil && res.Result != nil && len(res.Result.Value) > 0 {
			return json.Unmarshal(res.Result.Value, out)
		}
		return nil
	}, nil
}

// Describe returns the role and accessible name of the element as the
// snapshot shows them.
func (el *Element) Describe(ctx context.Context) (role, name string, err error) {
	var d struct {
		Role string `json:"role"`
		Name string `json:"name"`
	}
	err = el.call(ctx, &d, epDescribe)
	return d.Role, d.Name, err
}

// TargetReport is what an action's result says about the element it acted
// on: who it is, and whether its ref was re-resolved, its name changed or
// the action went ahead without the element being ready.
type TargetReport struct {
	Element     map[string]any `json:"element,omitempty"`
	ReResolved  bool           `json:"reResolved,omitempty"`
	NameChanged *NameChange    `json:"nameChanged,omitempty"`
	AutoForced  bool           `json:"autoForced,omitempty"`
	// MatchedSelector and SelectorIndex say which entry of a selectors
	// list found the element.
	MatchedSelector string `json:"matchedSelector,omitempty"`
	SelectorIndex   *int   `json:"selectorIndex,omitempty"`
	// Frame is the frame the element is in, when the step went there for
	// it (a ref taken inside an iframe, a text found in one): its URL, or
	// "top".
	Frame string `json:"frame,omitempty"`
}

// targetReport describes el for an action's result.
func (p *Page) targetReport(ctx context.Context, el *Element, autoForced bool) TargetReport {
	r := reportOf(el, el.info(ctx), autoForced)
	r.Frame = actedFrame(ctx)
	return r
}

// reportOf is the target report of el, given its info (targetInfo).
func reportOf(el *Element, info map[string]any, autoForced bool) TargetReport {
	r := TargetReport{Element: info, ReResolved: el.ReResolved, NameChanged: el.NameChanged, AutoForced: autoForced}
	if el.MatchedSelector != "" {
		i := el.SelectorIndex
		r.MatchedSelector, r.SelectorIndex = el.MatchedSelector, &i
	}
	return r
}

// moving reports whether the element's box changes over two animation frames.
func (el *Element) moving(ctx context.Context) (bool, error) {
	var moved bool
	err := el.Call(ctx, &moved, `(el) => new Promise((resolve) => {
		const a = el.getBoundingClientRect();
		requestAnimationFrame(() => requestAnimationFrame(() => {
			const b = el.getBoundingClientRect();
			resolve(a.x !== b.x || a.y !== b.y || a.width !== b.width || a.height !== b.height);
		}));
		setTimeout(() => resolve(false), 200);
	})`)
	return moved, err
}

// info returns a short description of the element for outputs.
func (el *Element) info(ctx context.Context) map[string]any {
	var info map[string]any
	raw := json.RawMessage{}
	if err := el.call(ctx, &raw, epTargetInfo); err == nil {
		json.Unmarshal(raw, &info)
	}
	return info
}

// checkedState reads a checkbox/radio/switch state, or nil for other
// elements.
func (el *Element) checkedState(ctx context.Context) *checkedInfo {
	var c checkedInfo
	if err := el.call(ctx, &c, epCheckedState); err != nil || c.Error != "" {
		return nil
	}
	return &c
}

// jsClickFocus focuses a focusable or editable element before its
// script click, as a user's press does (element.click() alone does not).
const jsClickFocus = `if (!el.matches(':disabled') && (el.hasAttribute('tabindex') || el.tabIndex >= 0 || el.isContentEditable)) el.focus({preventScroll: true});`

// jsClick clicks the element by script (element.click()), focusing it
// first when it takes focus; a double click clicks twice and fires
// dblclick.
func (el *Element) jsClick(ctx context.Context, double bool) error {
	fn := `(el) => { ` + jsClickFocus + ` el.click(); }`
	if double {
		fn = `(el) => { ` + jsClickFocus + ` el.click(); el.click(); el.dispatchEvent(new MouseEvent('dblclick', {bubbles: true, cancelable: true, composed: true, detail: 2})); }`
	}
	err := el.Call(ctx, nil, fn)
	if err != nil && KindOf(err) == KindContextDestroyed {
		return nil // it navigated
	}
	return err
}

// readValue reads the value the engine reports for a field.
func (el *Element) readValue(ctx context.Context) (string, error) {
	var v string
	err := el.call(ctx, &v, epReadValue)
	return v, err
}
