package browser

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// FillOptions tune a fill (spec §9.2).
type FillOptions struct {
	ActionOptions
	// Clear replaces the current value (default true).
	Clear bool
	// React sets the value with the prototype setter and events instead of
	// typing it (spec's react: true).
	React bool
}

// FillResult is the outcome of one fill.
type FillResult struct {
	Filled bool `json:"filled"`
	// Method is insertText (typed as by an IME), setter (value setter +
	// input/change events), select, or for a code or rich-text editor
	// paste (the editor's own paste) or keys (cleared with its keys), or
	// for an ARIA slider keys (its arrow keys pressed to the value).
	Method string `json:"method"`
	// Verified says the field holds the value afterwards.
	Verified *bool `json:"verified,omitempty"`
	// Consumed says the value went in and the page's own handler then
	// replaced it (e.g. added a todo and cleared the field): the fill
	// happened; do not repeat it.
	Consumed bool `json:"consumed,omitempty"`
	TargetReport
	Effect
	Warnings []string `json:"-"`
}

// Fill puts value into the target field: focus, select what is there,
// insert the text, fire change, then read the value back. A value that did
// not land is retried with the value setter (what React-style frameworks
// observe) and, failing that, reported as an error.
func (p *Page) Fill(ctx context.Context, t Target, value string, o FillOptions) (*FillResult, error) {
	ao := o.ActionOptions
	ao.prep, ao.watch = "read", true
	res := &FillResult{}
	s, err := p.perform(ctx, t, action{kind: "fill", opts: ao, act: func(ctx context.Context, s *acting) error {
		return p.fillElement(ctx, t, s.el(), value, o, res)
	}})
	if err != nil {
		return nil, err
	}
	res.TargetReport, res.Effect = s.report, s.effect
	res.Warnings = append(res.Warnings, s.warnings...)
	return res, nil
}

func (p *Page) fillElement(ctx context.Context, t Target, el *Element, value string, o FillOptions, res *FillResult) (err error) {
	// One round trip: the kind, for a typed or set value the watch that
	// tells a consumed value from a rejected one (see watchValue), and for
	// a value to be typed the field focused and selected (fillStart).
	var start struct {
		Kind    string      `json:"kind"`
		Editor  string      `json:"editor"`
		Slider  sliderState `json:"slider"`
		Focused *bool       `json:"focused"`
		Active  *pressHit   `json:"active"`
	}
	if err := el.call(ctx, &start, epFillStart, value, o.Clear, o.React); err != nil {
		return err
	}
	if start.Focused != nil && !*start.Focused && start.Active != nil {
		return focusStolen(*start.Active)
	}
	if start.Focused != nil && *start.Focused {
		// Armed by fillStart; read (and disarmed) with the value, or here
		// when the fill fails.
		defer func() {
			if err != nil {
				el.disarmGuard(ctx)
			}
		}()
	}
	kind := start.Kind
	if kind == "slider" {
		return p.fillSlider(ctx, el, start.Focused != nil && *start.Focused, start.Slider, value, res)
	}
	if kind == "editor" {
		return p.fillEditor(ctx, el, start.Editor, start.Focused != nil && *start.Focused, value, o, res)
	}
	if n, ok := strings.CutPrefix(kind, "too-long:"); ok {
		return Errorf(KindElementNotEditable, "the field accepts at most %s characters; the value has %d", n, len([]rune(value))).
			WithHint("shorten the value (the page sets maxlength)")
	}
	if kind == "select" {
		var r selectAnswer
		want := []SelectWant{OptionAny(value)}
		if err := el.call(ctx, &r, epSelectOption, want); err != nil {
			return err
		}
		if err := r.check(t, want); err != nil {
			return err
		}
		res.Method, res.Filled, res.Verified = "select", true, ptr(true)
		return nil
	}
	put := p.setValue
	res.Method = "setter"
	if kind != "set" && !o.React {
		res.Method = "insertText"
		put = func(ctx context.Context, el *Element, v string) (func(context.Context) error, error) {
			return p.typeInto(ctx, el, v, o.Clear, start.Focused)
		}
	}
	suffix := !o.Clear && res.Method == "insertText"
	verdict, got, err := p.putAndRead(ctx, el, value, suffix, put)
	if KindOf(err) == KindElementIntercepted {
		// The text was stopped on its way to another field: a hostile or
		// broken page, which no setter makes right.
		return err
	}
	if verdict == fillRejected && res.Method == "insertText" && !o.NoAutoForce {
		// The framework swallowed the typed text: set it the React way.
		if err := el.call(ctx, nil, epWatchValue); err == nil {
			if v, g, e := p.putAndRead(ctx, el, value, false, p.setValue); v != fillRejected {
				verdict, got, err = v, g, e
				res.Method = "setter"
				res.Warnings = append(res.Warnings, "typed text did not stick; set the value with the native setter and input/change events")
			}
		}
	}
	switch verdict {
	case fillHeld:
		res.Filled, res.Verified = true, ptr(true)
	case fillConsumed:
		res.Filled, res.Consumed = true, true
	case fillNavigated:
		res.Filled = true
	default:
		if err != nil {
			return err
		}
		return &Error{Kind: KindElementNotEditable, Message: fmt.Sprintf("the fill did not take: the field holds %q, not the value given", mask(got, value)),
			Hint: "the page rewrites or rejects this input (a mask, maxlength, or a controlled component); check the expected format or use type for keystrokes"}
	}
	return nil
}

// fillVerdict is what became of a value put into a field.
type fillVerdict int

const (
	// fillRejected: the value never appeared in the field.
	fillRejected fillVerdict = iota
	// fillHeld: the field holds the value.
	fillHeld
	// fillConsumed: the value appeared, then the page's own handler
	// replaced it (a todo input that adds the item and clears itself).
	fillConsumed
	// fillNavigated: the page navigated while the value went in.
	fillNavigated
)

// putAndRead puts value into el and says what became of it.
// got is the value the field holds afterwards.
func (p *Page) putAndRead(ctx context.Context, el *Element, value string, suffix bool, put filler) (verdict fillVerdict, got string, err error) {
	// put's last call (the change event) and the read go out together.
	last, err := put(ctx, el, value)
	var read func(context.Context, any) error
	if err == nil {
		read, err = el.send(ctx, epReadFill)
	}
	if err == nil && last != nil {
		err = last(ctx)
	}
	if err != nil {
		if KindOf(err) == KindContextDestroyed {
			return fillNavigated, "", nil
		}
		return fillRejected, "", err
	}
	var r struct {
		Value      string    `json:"value"`
		Seen       []string  `json:"seen"`
		Redirected *pressHit `json:"redirected"`
	}
	if err := read(ctx, &r); err != nil {
		if KindOf(err) == KindContextDestroyed {
			return fillNavigated, "", nil
		}
		return fillRejected, "", err
	}
	if r.Redirected != nil {
		return fillRejected, "", textRedirected(*r.Redirected)
	}
	if valuesMatch(r.Value, value, suffix) {
		return fillHeld, r.Value, nil
	}
	for _, v := range r.Seen {
		if valuesMatch(v, value, suffix) {
			return fillConsumed, r.Value, nil
		}
	}
	return fillRejected, r.Value, nil
}

// filler puts a value into a field; the returned func, when not nil,
// waits for its last call, which it only sent (putAndRead sends the read
// right behind it).
type filler func(ctx context.Context, el *Element, value string) (func(context.Context) error, error)

// typeInto focuses the field, selects its content (when clear) and inserts
// the value, then fires change (sent, not waited for). focused is what
// fillStart answered when it did that focusing already.
func (p *Page) typeInto(ctx context.Context, el *Element, value string, clear bool, focused *bool) (func(context.Context) error, error) {
	if focused == nil {
		var f bool
		if err := el.call(ctx, &f, epPrepareFill, clear); err != nil {
			return nil, err
		}
		focused = &f
	}
	if !*focused {
		el.disarmGuard(ctx)
		return nil, Errorf(KindElementNotEditable, "the field cannot take focus").WithHint("it may be covered or disabled; try click on it first")
	}
	if value == "" {
		if clear {
			k, _ := lookupKey("Delete")
			if err := p.in.Press(ctx, KeyCombo{Key: k, Name: "Delete"}); err != nil {
				return nil, err
			}
		}
	} else if err := p.in.InsertText(ctx, value); err != nil {
		return nil, err
	}
	wait, err := el.send(ctx, epFireChange)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) error { return wait(ctx, nil) }, nil
}

// setValue sets the value with the native setter and input/change events.
func (p *Page) setValue(ctx context.Context, el *Element, value string) (func(context.Context) error, error) {
	return nil, el.Call(ctx, nil, `(el, v) => { el.focus({preventScroll: true}); return `+epSetValue.js()+`(el, v); }`, value)
}

var nonAlnum = lazyRegexp(`[^\p{L}\p{N}]+`)

// valuesMatch compares the value read back with the value given; a field
// that formats input (phone masks, thousands separators) still matches when
// its letters and digits are the same. suffix only checks the end.
func valuesMatch(got, want string, suffix bool) bool {
	if suffix {
		return strings.HasSuffix(got, want) || strings.HasSuffix(nonAlnum().ReplaceAllString(got, ""), nonAlnum().ReplaceAllString(want, ""))
	}
	if got == want || strings.TrimSpace(got) == strings.TrimSpace(want) {
		return true
	}
	g, w := nonAlnum().ReplaceAllString(got, ""), nonAlnum().ReplaceAllString(want, "")
	return g != "" && strings.EqualFold(g, w)
}

// mask hides a password-like value in messages: never echo what was typed.
func mask(got, typed string) string {
	if got == typed || len(got) > 0 && strings.Contains(typed, got) {
		return strings.Repeat("•", min(len(got), 8))
	}
	return got
}

// selectResult is the engine's answer to selectOptions.
type selectResult struct {
	Selected  []map[string]string `json:"selected"`
	Multiple  bool                `json:"multiple"`
	Error     string              `json:"error"`
	Detail    string              `json:"detail"`
	Available []map[string]string `json:"available"`
	Count     int                 `json:"count"`
	Label     string              `json:"label"`
}

func (r selectResult) err(wanted any) error {
	switch r.Error {
	case "":
		return nil
	case "not-select":
		return Errorf(KindElementNotEditable, "the target is %s", r.Detail).WithHint("click a custom dropdown open and click the option, or target the <select>")
	case "no-option":
		var opts []string
		for _, o := range r.Available {
			opts = append(opts, fmt.Sprintf("%q (value %q)", o["label"], o["value"]))
		}
		more := ""
		if r.Count > len(r.Available) {
			more = fmt.Sprintf(" and %d more", r.Count-len(r.Available))
		}
		e := Errorf(KindElementNotFound, "no option matches %v; options: %s%s", wanted, strings.Join(opts, ", "), more)
		e.Details = map[string]any{"available": r.Available}
		return e
	case "disabled-option":
		return Errorf(KindElementNotEditable, "option %q is disabled", r.Label)
	case "single":
		return Errorf(KindStepValidation, "the select takes one option, %d given", r.Count)
	}
	return Errorf(KindExecution, "select failed: %s", r.Error)
}

// TypeOptions tune Type.
type TypeOptions struct {
	ActionOptions
	Delay time.Duration
}

// Type focuses the target (when given) and types text key by key.
func (p *Page) Type(ctx context.Context, t Target, text string, o TypeOptions) (*FillResult, error) {
	res := &FillResult{Method: "keys"}
	// spread says the keys went on into the next fields (split code
	// inputs), past the field the guard watches (focusguard.js).
	spread := false
	ao := o.ActionOptions
	ao.prep = "read"
	ac := action{kind: "type", opts: ao, targetOptional: true, keys: true}
	ac.prepare = func(ctx context.Context, s *acting) error {
		if s.ready == nil {
			return nil
		}
		return p.typeStart(ctx, s.el())
	}
	ac.act = func(ctx context.Context, s *acting) (err error) {
		guarded := s.el()
		if guarded != nil {
			defer func() {
				if err != nil {
					guarded.disarmGuard(ctx)
				}
			}()
		}
		if err := p.in.TypeText(ctx, text, o.Delay); err != nil {
			return err
		}
		if guarded == nil {
			return nil
		}
		g, err := guarded.readGuard(ctx)
		switch {
		case err != nil:
		case g.Redirected != nil:
			return textRedirected(*g.Redirected)
		case len(g.Advanced) > 0:
			spread = true
			s.warn("the field filled up and the page moved focus on (from %s): the rest of the text went into the next field, as a user's typing would", strings.Join(g.Advanced, ", then "))
		}
		return nil
	}
	ac.verify = func(ctx context.Context, s *acting) error {
		if s.report.Element != nil && !spread {
			res.Verified = p.typedShows(ctx, t, text)
		}
		return nil
	}
	s, err := p.perform(ctx, t, ac)
	if err != nil {
		return nil, err
	}
	res.Filled = true
	res.TargetReport, res.Effect, res.Warnings = s.report, s.effect, s.warnings
	return res, nil
}

// typeStart focuses el for typing and arms the guard that keeps the keys
// in it (focusguard.js); it fails when the page moves focus elsewhere.
func (p *Page) typeStart(ctx context.Context, el *Element) error {
	var start struct {
		Focused bool      `json:"focused"`
		Active  *pressHit `json:"active"`
	}
	if err := el.call(ctx, &start, epTypeStart); err != nil {
		return err
	}
	if !start.Focused && start.Active != nil {
		return focusStolen(*start.Active)
	}
	return nil
}

// typedShows says whether the typed text shows up in the target field:
// keystrokes may be transformed (autocomplete, masks), so only its letters
// and digits are compared. Nil when the field cannot be read.
func (p *Page) typedShows(ctx context.Context, t Target, text string) *bool {
	el, _, err := p.locate(ctx, t)
	if err != nil || el == nil {
		return nil
	}
	defer el.release()
	got, err := el.readValue(ctx)
	if err != nil {
		return nil
	}
	return ptr(strings.Contains(nonAlnum().ReplaceAllString(got, ""), nonAlnum().ReplaceAllString(text, "")))
}

// PressResult is the outcome of a key press.
type PressResult struct {
	Pressed string         `json:"pressed"`
	Times   int            `json:"times,omitempty"`
	Element map[string]any `json:"element,omitempty"`
	Effect
}

// PressKeys focuses the target (when given) and presses combo times times.
func (p *Page) PressKeys(ctx context.Context, t Target, combo KeyCombo, times int) (*PressResult, error) {
	res := &PressResult{Pressed: combo.Name}
	if len(combo.ModKeys) > 0 {
		res.Pressed = strings.Join(combo.ModKeys, "+") + "+" + combo.Name
	}
	if times > 1 {
		res.Times = times
	}
	ac := action{kind: "focus", targetOptional: true, keys: true}
	ac.prepare = func(ctx context.Context, s *acting) error {
		if s.ready == nil {
			return nil
		}
		s.reported = true
		res.Element = s.el().info(ctx)
		return s.el().Call(ctx, nil, `(el) => el.focus({preventScroll: true})`)
	}
	ac.act = func(ctx context.Context, s *acting) error {
		for range times {
			if err := p.in.Press(ctx, combo); err != nil {
				return err
			}
		}
		return nil
	}
	s, err := p.perform(ctx, t, ac)
	if err != nil {
		return nil, err
	}
	res.Effect = s.effect
	return res, nil
}

// Count returns how many elements match a CSS selector in the current
// frame, open shadow roots included.
func (p *Page) Count(ctx context.Context, sel string) (int, error) {
	var n int
	err := p.engineCall(ctx, &n, epSelectorRead, sel, "count")
	return n, err
}
