package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/input"
)

// ClickOptions tune a click (spec §9.1).
type ClickOptions struct {
	ActionOptions
	// JSClick clicks with element.click() only; NativeOnly never falls back
	// to it.
	JSClick    bool
	NativeOnly bool
	Double     bool
	Button     input.MouseButton
	Modifiers  Modifiers
}

// ClickResult is the outcome of a click.
type ClickResult struct {
	Clicked bool `json:"clicked"`
	// Method is cdp, jsClick, or jsClick-auto (the CDP click did not reach
	// the element, so element.click() ran).
	Method       string `json:"method"`
	CDPAttempted bool   `json:"cdpAttempted,omitempty"`
	Via          string `json:"via,omitempty"`
	TargetReport
	Matched     string         `json:"matched,omitempty"`
	Interceptor map[string]any `json:"interceptedBy,omitempty"`
	// Part is where the click landed when that was a part of the
	// element's own widget (an editor's text layer over its textarea).
	Part    string `json:"clickedPart,omitempty"`
	Checked *bool  `json:"checked,omitempty"`
	Effect
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

type probeResult struct {
	Received bool `json:"received"`
	// Clicked: the click event itself reached the element (a press can
	// without it, when the element moves before the release).
	Clicked bool   `json:"clicked"`
	Hit     string `json:"hit"`
	Gone    bool   `json:"gone"`
	// Detached: the element left the DOM during the click (the page
	// re-rendered it), so the press went to its replacement.
	Detached bool `json:"detached"`
	// Lookalike, for a detached element, says where the release went: to
	// a look-alike of it in the same ARIA state (true: the page re-rendered
	// the same thing under the pointer), to something else or a look-alike
	// in another state (false: the press's own handlers acted, as a menu
	// that picks its item on mousedown does), or nowhere the probe saw
	// (nil).
	Lookalike *bool `json:"lookalike"`
	// PressTaken: a handler of the press prevented its default, taking
	// it for its own (a widget that acts on mousedown).
	PressTaken bool `json:"pressTaken"`
	// ClickHit is where the click event went when it fired at all ("" for
	// a target without a selector, nil when none fired).
	ClickHit *string `json:"clickHit"`
	// Blocked is what the press reached instead of the element (the page
	// changed what is under the pointer when it arrived): the press and
	// the rest of the click were stopped before the page saw them.
	// Renamed is set when the element itself was there under another name.
	Blocked *pressHit   `json:"blocked"`
	Renamed *NameChange `json:"renamed"`
	// Part: the press went to a part of the element's own widget (an
	// editor's text layer); Focused says the element then had focus.
	Part    bool `json:"part"`
	Focused bool `json:"focused"`
}

// pressHit is the element a press reached (hittarget.js hitOf).
type pressHit struct {
	Selector string `json:"selector"`
	Role     string `json:"role,omitempty"`
	Name     string `json:"name,omitempty"`
	// At is the text of the item the press reached inside the element (a
	// row of a focusable list).
	At string `json:"at,omitempty"`
}

func (h pressHit) String() string {
	s := h.Selector
	if h.Role != "" && h.Role != "generic" {
		s = h.Role + " " + s
	}
	if h.Name != "" {
		s += fmt.Sprintf(" (%q)", h.Name)
	}
	if h.At != "" {
		s += fmt.Sprintf(" at %q", h.At)
	}
	return s
}

// Click clicks the target with real mouse events at its visible centre,
// verifies that the press reached it, and falls back to element.click()
// when it did not (unless NativeOnly).
func (p *Page) Click(ctx context.Context, t Target, o ClickOptions) (*ClickResult, error) {
	res, err := p.click(ctx, t, o)
	if err != nil {
		// A capture taken ahead (CaptureAhead) is of a click that worked.
		p.dropCaptureAhead()
	}
	return res, err
}

func (p *Page) click(ctx context.Context, t Target, o ClickOptions) (*ClickResult, error) {
	button := o.Button
	if button == "" {
		button = input.MouseButtonLeft
	}
	count := 1
	if o.Double {
		count = 2
	}
	res := &ClickResult{Clicked: true, Method: "cdp"}
	ao := o.ActionOptions
	ao.prep, ao.watch = "arm", true
	kind := "click"
	if o.JSClick {
		ao.prep, kind = "read", "jsclick"
	}
	var (
		before *checkedInfo
		armed  bool
	)
	ac := action{kind: kind, opts: ao, pointer: true, pointOptional: true, frontAfterNewTab: true}
	ac.prepare = func(ctx context.Context, s *acting) error {
		a := s.ready
		if a == nil {
			return nil
		}
		mouse := !p.jsAuto(a, o) && !o.JSClick && a.Point != nil
		s.report, before, armed = p.clickPrep(ctx, a, mouse)
		s.reported = true
		res.Matched, res.Via, res.Interceptor = a.Matched, a.Via, a.Interceptor
		if o.JSClick && !a.AutoForced && a.Interceptor != nil {
			s.warn("%s covers the element, so a user could not click it; clicked it with element.click() as asked", describeLayer(a.Interceptor))
		}
		return nil
	}
	ac.act = func(ctx context.Context, s *acting) error {
		if s.ready == nil {
			return p.in.mouseClick(ctx, s.at, button, count, o.Modifiers)
		}
		return p.clickElement(ctx, s, o, button, count, armed, res)
	}
	ac.verify = func(ctx context.Context, s *acting) error {
		if before != nil {
			p.verifyToggle(ctx, s.el(), *before, res)
		}
		return nil
	}
	s, err := p.perform(ctx, t, ac)
	if err != nil {
		return nil, err
	}
	res.TargetReport, res.Effect = s.report, s.effect
	res.Warnings = append(s.warnings, res.Warnings...)
	return res, nil
}

// jsAuto says a mouse click would reach something else that is not a
// blocking layer (a toast, the element's own decoration), so the click is
// element.click() after the actionability timeout.
func (p *Page) jsAuto(a *Actionable, o ClickOptions) bool {
	return a.AutoForced && a.Interceptor != nil && !o.JSClick && !o.NativeOnly
}

// clickElement is the act of a click on an element: a mouse click whose
// press is verified to reach it, or element.click() when asked for or when
// no mouse click can.
func (p *Page) clickElement(ctx context.Context, s *acting, o ClickOptions, button input.MouseButton, count int, armed bool, res *ClickResult) error {
	a := s.ready
	switch {
	case p.jsAuto(a, o):
		res.Method = "jsClick-auto"
		return a.El.jsClick(ctx, o.Double)
	case o.JSClick || !s.hasPoint:
		if !s.hasPoint && !o.JSClick {
			if o.NativeOnly {
				return Errorf(KindElementNotFound, "%s has no point to click: %s", s.t, a.Reason)
			}
			s.warn("the element has no visible point; clicked it with element.click()")
		}
		res.Method = "jsClick"
		return a.El.jsClick(ctx, o.Double)
	}
	probe, err := p.cdpClick(ctx, s, button, count, o.Modifiers, armed)
	if err != nil {
		return err
	}
	switch {
	case probe.Blocked != nil:
		return pressRedirected(s.t, a, probe)
	case probe.Part:
		res.Part = a.Part
		if !probe.Focused {
			p.focusAfterPart(ctx, a, res)
		}
	case !probe.Received:
		return p.afterMissedClick(ctx, s.t, a, o, probe, res)
	default:
		if w := pressWithoutClick(probe); w != "" {
			// Not clicked again: the press ran the page's own handlers,
			// and another click could act twice.
			s.warn("%s", w)
		}
	}
	return nil
}

// pressWithoutClick is the warning for a press that reached the element
// while its click did not: it moved away under the pointer, or the page
// re-rendered it when pressed (the click then went to its replacement, or
// fired nowhere). "" when the click reached it, the page went away, or
// the press's own handlers acted on it (the element is gone and the
// release found something else where it stood).
func pressWithoutClick(probe probeResult) string {
	switch {
	case probe.Clicked || probe.Gone:
		return ""
	case probe.Detached && (probe.PressTaken || probe.Lookalike != nil && !*probe.Lookalike):
		// The element the press reached is gone, and the page took the
		// press for its own or left something else (or the same thing in
		// another state) where it stood: the press's handlers acted
		// (picked the item, closed the menu). Saying "click again" would
		// make the agent act twice.
		return ""
	case probe.Detached && probe.ClickHit != nil:
		return fmt.Sprintf("the page re-rendered the element when it was pressed; the click event went to %s (its replacement or container), not to the element pressed: take a snapshot to see whether the page acted, before clicking again", orUnnamed(*probe.ClickHit))
	case probe.Detached:
		return "the page re-rendered the element when it was pressed, and no click event fired (the pressed element was gone when the button was released), so the page's click handlers did not run; take a snapshot to see what the press did, before clicking again"
	}
	return "the press reached the element but the release did not (it moved or changed under the pointer), so no click event fired; take a snapshot to see whether the page acted, before clicking again"
}

// orUnnamed is a short selector, or a word for an element without one.
func orUnnamed(sel string) string {
	if sel == "" {
		return "an element"
	}
	return sel
}

// afterMissedClick decides what follows a mouse click that the probe says
// did not reach the element: nothing when the page re-rendered the element
// under the pointer (the press reached its replacement), an
// ElementInterceptedError when a blocking layer took it, an error with
// nativeOnly, and otherwise one JavaScript click.
func (p *Page) afterMissedClick(ctx context.Context, t Target, a *Actionable, o ClickOptions, probe probeResult, res *ClickResult) error {
	if probe.Detached {
		// Clicking the old, detached node with JavaScript could run its
		// handler a second time.
		res.Warnings = append(res.Warnings, fmt.Sprintf("the element was re-rendered during the click; the mouse click landed on its replacement (%s)", probe.Hit))
		return nil
	}
	if c, err := p.check(ctx, a.El, "click", 0); err == nil && blocking(c) {
		e := Errorf(KindElementIntercepted, "the click at (%.0f, %.0f) landed on %s, not on %s: %s covers it, which a user would have to dismiss first", a.Point.X, a.Point.Y, probe.Hit, t, c.describe())
		e.Details = map[string]any{"interceptedBy": c.Interceptor}
		return e.WithHint("close or answer the covering layer first (its buttons are in interceptedBy.buttons), then click again")
	}
	if o.NativeOnly {
		e := Errorf(KindElementNotFound, "the click at (%.0f, %.0f) landed on %s, not on %s", a.Point.X, a.Point.Y, probe.Hit, t)
		if a.Interceptor != nil {
			e.Details = map[string]any{"interceptedBy": a.Interceptor}
		}
		return e.WithHint("dismiss what covers it, or drop nativeOnly (and strict) to fall back to a JavaScript click")
	}
	res.Method, res.CDPAttempted = "jsClick-auto", true
	res.Warnings = append(res.Warnings, fmt.Sprintf("the mouse click landed on %s; clicked the element with element.click() instead", probe.Hit))
	return a.El.jsClick(ctx, o.Double)
}

// cdpClick arms the reception probe (unless armed), clicks with mouse
// events and reads the probe; when the press was received the page has
// settled too, and s.w holds its report.
func (p *Page) cdpClick(ctx context.Context, s *acting, button input.MouseButton, count int, mods Modifiers, armed bool) (probeResult, error) {
	w := s.w
	if !armed {
		if err := s.el().call(ctx, nil, epArmProbe); err != nil {
			return probeResult{}, err
		}
	}
	if err := p.in.mouseClick(ctx, s.at, button, count, mods); err != nil {
		return probeResult{}, err
	}
	// The page settles (in its own world) while the probe is read (in the
	// engine's); a press that missed arms the watch again for the
	// fallback.
	settled := w.settlePageSignal(ctx, p.sendCaptureAhead(ctx, w))
	sctx, cancel := context.WithTimeout(ctx, settleBound)
	defer cancel()
	// Unreadable, the click navigated and the document is gone: it was
	// received.
	probe := probeResult{Received: true, Clicked: true, Gone: true}
	raw, err := p.engineEval(sctx, `window.__cdpSkill && `+epReadProbe.js()+` ? `+epReadProbe.js()+`() : {received: true, clicked: true, gone: true}`)
	if err == nil {
		var read probeResult
		if jsonUnmarshal(raw, &read) == nil {
			probe = read
		}
	}
	if probe.Received {
		w.presettled = settled
	} else {
		p.dropCaptureAhead()
		w.rearm(ctx)
	}
	return probe, nil
}

// clickPrepResult is the engine's clickPrep: what the answer reports
// about the element, its checked state, and whether the probe is armed.
type clickPrepResult struct {
	Info    map[string]any `json:"info"`
	Checked checkedInfo    `json:"checked"`
	Armed   bool           `json:"armed"`
}

type checkedInfo struct {
	Checked bool   `json:"checked"`
	Role    string `json:"role"`
	Error   string `json:"error"`
}

// clickPrep reads, in one round trip, what the answer reports about the
// element and its checked state (a toggle's, nil for others), and arms the
// press probe for a mouse click (armed says it did).
func (p *Page) clickPrep(ctx context.Context, a *Actionable, arm bool) (TargetReport, *checkedInfo, bool) {
	var prep clickPrepResult
	if a.Prep != nil && (a.Prep.Armed || !arm) {
		// The last actionability check read it already.
		prep = *a.Prep
	} else if err := a.El.call(ctx, &prep, epClickPrep, arm); err != nil {
		return p.targetReport(ctx, a.El, a.AutoForced), a.El.checkedState(ctx), false
	}
	var before *checkedInfo
	if prep.Checked.Error == "" {
		before = &prep.Checked
	}
	r := reportOf(a.El, prep.Info, a.AutoForced)
	r.Frame = actedFrame(ctx)
	return r, before, prep.Armed
}

// verifyToggle reads a checkbox, radio or toggle's state after a click and
// says when the click did not change it. It never clicks again: the click
// reached the element (the probe said so), and a second activation would
// run the page's handler twice.
func (p *Page) verifyToggle(ctx context.Context, el *Element, before checkedInfo, res *ClickResult) {
	want := !before.Checked
	if before.Role == "radio" {
		want = true
	}
	after := el.checkedState(ctx)
	if after == nil {
		return
	}
	res.Checked = &after.Checked
	if after.Checked != want {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the click did not change the %s: it is still %s (the page may have refused it)", before.Role, map[bool]string{true: "checked", false: "unchecked"}[after.Checked]))
	}
}

// toTop converts a point of the current frame's viewport into the top
// level viewport that input events use, through every frame on the way
// (moved, scaled or rotated).
func (p *Page) toTop(ctx context.Context, pt Point) (Point, error) {
	if !p.Frames().InChild(ctx) {
		return pt, nil
	}
	m, err := p.frameTransform(ctx)
	if err != nil {
		return pt, err
	}
	return m.apply(pt), nil
}

// describeLayer names a covering layer from its description
// (describeInterceptor in act.js): "cookie-banner div#banner".
func describeLayer(in map[string]any) string {
	s := fmt.Sprintf("%v %v", in["kind"], in["selector"])
	if t, ok := in["text"].(string); ok && t != "" {
		s += fmt.Sprintf(" (%q)", t)
	}
	return s
}
