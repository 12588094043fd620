package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/dom"
)

// DefaultActionTimeout bounds the wait for an element to become actionable
// (spec §8.9); the step timeout bounds it further.
const DefaultActionTimeout = 5 * time.Second

// earlyForceAfter: when the same overlay has covered the target this long,
// waiting the rest of the actionability timeout will not help.
const earlyForceAfter = time.Second

// retryDelays are the progressive delays between actionability checks.
var retryDelays = []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}

// ActionOptions tune the actionability wait.
type ActionOptions struct {
	// Force skips the checks (spec §8.8).
	Force bool
	// Timeout is the actionability timeout (default 5 s).
	Timeout time.Duration
	// Stable also waits until the element stops moving (spec §8.6).
	Stable bool
	// NoAutoForce fails instead of forcing when the checks time out.
	NoAutoForce bool
	// prep asks the check that finds a click's target ready to also read
	// what the click reports and arm its probe (clickPrep), in the same
	// round trip: "read" or "arm".
	prep string
	// watch arms the action's watch in the round trip of the first
	// lookup and check (Actionable.watch): when the element is ready at
	// once, the action starts one round trip sooner.
	watch bool
}

// Actionable is an element ready for an action.
type Actionable struct {
	El *Element
	// Matched is the selector that matched, for selector lists.
	Matched string
	// Point is where a pointer action should land (viewport of the frame).
	Point *Point
	Box   map[string]float64
	// AutoForced is set when the checks timed out and the action goes ahead
	// anyway (spec §8.7); Reason says which check failed.
	AutoForced bool
	Reason     string
	// Interceptor describes what covers the target, when something does.
	Interceptor map[string]any
	// Via is "label" when the point is on the label of a hidden checkbox.
	Via string
	// Part is the element at Point when it is not the target but a part of
	// the target's own widget (an editor's text layer over its textarea):
	// a user's click there reaches the target.
	Part string
	// Prep is the click's preparation, read with the last check when
	// asked for (ActionOptions.prep).
	Prep *clickPrepResult
	// watch is the action's watch, armed with the check when asked for
	// (ActionOptions.watch) and the element was ready at once; nil
	// otherwise. The action owns it.
	watch *actionWatch
}

// checkResult is the engine's answer to check(el, kind).
type checkResult struct {
	OK          bool               `json:"ok"`
	Reason      string             `json:"reason"`
	Detail      string             `json:"detail"`
	Permanent   bool               `json:"permanent"`
	Point       *Point             `json:"point"`
	Box         map[string]float64 `json:"box"`
	Interceptor map[string]any     `json:"interceptor"`
	// Via is "label" when a hidden checkbox or radio is reached through
	// its label.
	Via string `json:"via"`
	// Part is what the point hits when that is part of the target's own
	// widget (hittarget.js widgetPart).
	Part string `json:"part"`
	// Prep answers ActionOptions.prep when the check passed.
	Prep *clickPrepResult `json:"prep"`
	// Changes says the check started the action's change log (asked for
	// by checkFollow, when it passed); URL is then the top document's URL,
	// read in the top frame.
	Changes bool   `json:"changes"`
	URL     string `json:"url"`
	// Scrolling: a scroll of the engine's (the check's own scroll into
	// view, or the step's before) has not yet run the page's scroll
	// listeners (scrollpending.js).
	Scrolling bool `json:"scrolling"`
}

func (c checkResult) describe() string {
	msg := strings.ReplaceAll(c.Reason, "-", " ")
	switch {
	case c.Detail == "":
	case strings.HasPrefix(c.Detail, msg):
		msg = c.Detail // "not editable (a div)", not "not editable (not editable (a div))"
	default:
		msg += " (" + c.Detail + ")"
	}
	if c.Reason == "covered" && c.Interceptor != nil {
		msg = fmt.Sprintf("covered by %v %v", c.Interceptor["kind"], c.Interceptor["selector"])
		if t, ok := c.Interceptor["text"]; ok {
			msg += fmt.Sprintf(" (%q)", t)
		}
	}
	return msg
}

// check runs the engine's actionability check. coveredBefore counts the
// earlier checks that found the element covered, so that the engine tries
// other scroll alignments (a sticky header may hide it at one of them).
func (p *Page) check(ctx context.Context, el *Element, kind string, coveredBefore int, prep ...string) (checkResult, error) {
	var c checkResult
	pr := ""
	if len(prep) > 0 {
		pr = prep[0]
	}
	err := el.call(ctx, &c, epCheck, kind, checkArgs{Attempt: coveredBefore, Prep: pr})
	return c, err
}

// checkArgs are the engine check's options (act.js check).
type checkArgs struct {
	Attempt int    `json:"attempt"`
	Prep    string `json:"prep"`
}

// checkFollow is check sent right behind the lookup of its element (see
// lookupFollow); with changes, a check that passes also starts the
// engine's change log for the action and reads the URL (pendingWatch.take).
func checkFollow(kind string, coveredBefore int, prep string, changes bool) *lookupFollow {
	args, _ := jsonMarshal(map[string]any{"attempt": coveredBefore, "prep": prep, "changes": changes})
	return &lookupFollow{expr: epCheckLast.js() + "(" + jsString(kind) + ", " + args + ")"}
}

// checkFound is the check of el: f's answer when it rode with the lookup
// of el, or a call of its own.
func (p *Page) checkFound(ctx context.Context, el *Element, f *lookupFollow, kind string, coveredBefore int, prep string) (checkResult, error) {
	if f.found() {
		var c checkResult
		if err := jsonUnmarshal(f.raw, &c); err == nil {
			return c, nil
		}
	}
	return p.check(ctx, el, kind, coveredBefore, prep)
}

// WaitActionable finds the target and waits until it can take an action of
// kind (click, fill, type, hover, select, check, focus): attached, visible,
// enabled, editable, not covered. When the wait times out but the element
// exists, the action goes ahead with AutoForced set.
func (p *Page) WaitActionable(ctx context.Context, t Target, kind string, o ActionOptions) (*Actionable, error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultActionTimeout
	}
	started := time.Now()
	deadline := started.Add(timeout)
	if dl, ok := ctx.Deadline(); ok && dl.Add(-100*time.Millisecond).Before(deadline) {
		deadline = dl.Add(-100 * time.Millisecond)
	}
	var (
		el          *Element
		matched     string
		last        checkResult
		coveredBy   string
		coveredAt   time.Time
		attempt     int
		covered     int
		lastLocated bool
		flushes     int
	)
	// The first lookup also arms the action's watch when asked: handed to
	// the action when the element is ready at once, stopped otherwise.
	var pending *pendingWatch
	defer func() { pending.abandon() }()
	for {
		var err error
		prep := o.prep
		if o.Force {
			prep = ""
		}
		ahead := attempt == 0 && o.watch && !o.Stable
		f := checkFollow(kind, covered, prep, ahead)
		if ahead {
			f.sent = func() { pending = p.startWatch(ctx) }
		}
		found, foundBy, err := p.locateThen(ctx, t, f)
		if attempt == 0 {
			// The target is found and checked; nothing has changed the
			// page yet (the check's scroll aside).
			p.runBeforeChange(ctx)
		}
		if err != nil {
			if attempt > 0 && ctx.Err() != nil {
				// The step's time ran out during a lookup: answer what the
				// wait found (not found, not actionable), not a bare
				// deadline.
				break
			}
			return nil, err
		}
		el, matched = found, foundBy
		lastLocated = el != nil
		if el != nil {
			if o.Force {
				c, _ := p.checkFound(ctx, el, f, kind, 0, "")
				a := &Actionable{El: el, Matched: matched, Point: c.Point, Box: c.Box, Via: c.Via}
				a.watch, pending = pending.take(ctx, c), nil
				return a, nil
			}
			last, err = p.checkFound(ctx, el, f, kind, covered, o.prep)
			if err != nil && !p.navigationGone(err) {
				return nil, err
			}
			if last.OK && last.Scrolling && flushes < maxScrollFlushes {
				// The page's scroll listeners run now (a virtualised list
				// renders its rows again), not between the press and the
				// release; then the element and its point are found again
				// (they may have run already, and replaced it).
				p.flushScroll(ctx, el)
				flushes++
				pending.abandon()
				pending = nil
				continue
			}
			if last.OK {
				if o.Stable && kind != "fill" && kind != "type" {
					if moved, err := el.moving(ctx); err == nil && moved {
						last.OK, last.Reason, last.Detail = false, "moving", "its position changes between animation frames"
						goto wait
					}
					// The point may have moved during the stability wait.
					if c, err := p.check(ctx, el, kind, 0, o.prep); err == nil && c.OK {
						last = c
					}
				}
				a := &Actionable{El: el, Matched: matched, Point: last.Point, Box: last.Box, Via: last.Via, Part: last.Part, Prep: last.Prep, Interceptor: last.Interceptor}
				p.revealActionable(ctx, a)
				a.watch, pending = pending.take(ctx, last), nil
				return a, nil
			}
			// Not ready: the page's functions are put back while it waits.
			pending.abandon()
			pending = nil
			if last.Permanent {
				return nil, notEditable(t, last)
			}
			if last.Reason == "covered" {
				covered++
				by := fmt.Sprint(last.Interceptor["selector"])
				if by != coveredBy {
					coveredBy, coveredAt = by, time.Now()
				} else if time.Since(coveredAt) >= earlyForceAfter && covered >= scrollAlignments {
					// The same layer has covered it at every scroll
					// position for a while: waiting longer will not help.
					if blocking(last) {
						return nil, intercepted(t, kind, last)
					}
					if !o.NoAutoForce {
						return p.autoForce(el, matched, last), nil
					}
				}
			}
			if last.Reason == "disabled" && (kind == "fill" || kind == "type") && time.Since(started) >= earlyForceAfter {
				return nil, notEditable(t, last)
			}
		}
	wait:
		delay := retryDelays[min(attempt, len(retryDelays)-1)]
		attempt++
		if time.Now().Add(delay).After(deadline) {
			break
		}
		if err := Sleep(ctx, delay); err != nil {
			break
		}
	}
	waited := time.Since(started)
	if !lastLocated {
		return nil, notFound(t, waited)
	}
	switch {
	case blocking(last):
		return nil, intercepted(t, kind, last)
	case kind == "fill" || kind == "type":
		if last.Reason == "disabled" {
			return nil, notEditable(t, last)
		}
	}
	// Only an element that never settles or stays covered by something
	// that is not a blocking layer (its own decoration, a toast, a sticky
	// header) is acted on anyway. A hidden, disabled or detached one would
	// report an action that no user could do.
	if o.NoAutoForce || (last.Reason != "covered" && last.Reason != "moving") {
		return nil, notActionable(t, kind, last, waited)
	}
	return p.autoForce(el, matched, last), nil
}

// maxScrollFlushes bounds how often one actionability wait lets the
// page's scroll listeners run before it checks again.
const maxScrollFlushes = 2

// flushScroll waits until the page's scroll listeners have run for the
// engine's last scroll and the scrollers around el stopped moving (a few
// frames at most). A failure leaves it to the check that follows.
func (p *Page) flushScroll(ctx context.Context, el *Element) {
	el.call(ctx, nil, epScrollFlush)
}

// actionReport is the target report of a: what its check read (the prep
// "read" or "arm"), or a read of its own.
func (p *Page) actionReport(ctx context.Context, a *Actionable) TargetReport {
	if a.Prep == nil {
		return p.targetReport(ctx, a.El, a.AutoForced)
	}
	r := reportOf(a.El, a.Prep.Info, a.AutoForced)
	r.Frame = actedFrame(ctx)
	return r
}

// watchAction returns the action's watch: the one armed with a's check
// (ActionOptions.watch), or a new one.
func (p *Page) watchAction(ctx context.Context, a *Actionable) (*actionWatch, error) {
	if w := a.watch; w != nil {
		a.watch = nil
		return w, nil
	}
	return p.watch(ctx)
}

// revealActionable scrolls the frame chain so that a pointer target inside
// an iframe is in the top-level viewport too: input events go to the top
// viewport, and an iframe scrolled out of the page would miss them. Best
// effort: a failure leaves the click's own verification to notice a miss.
func (p *Page) revealActionable(ctx context.Context, a *Actionable) {
	if !p.Frames().InChild(ctx) || a.Point == nil {
		return
	}
	r := dom.Rect{X: a.Point.X - 1, Y: a.Point.Y - 1, Width: 2, Height: 2}
	if b := a.Box; b != nil && b["width"] > 0 && b["height"] > 0 {
		r = dom.Rect{X: b["x"], Y: b["y"], Width: b["width"], Height: b["height"]}
	}
	p.revealInFrames(ctx, r)
}

// scrollAlignments is how many scroll alignments the engine tries for a
// covered element (SCROLL_ALIGN in act.js).
const scrollAlignments = 4

// blocking reports whether a failed check found the target under a layer a
// user must dismiss first (a modal, backdrop, overlay, consent banner).
func blocking(c checkResult) bool {
	return c.Reason == "covered" && c.Interceptor != nil && c.Interceptor["blocking"] == true
}

// intercepted is the error for a target under a blocking layer: it names
// the layer and lists its buttons with refs, so dismissing it is one step.
func intercepted(t Target, kind string, c checkResult) error {
	e := Errorf(KindElementIntercepted, "%s cannot be %s: it is %s, which a user would have to dismiss first", t, pastTense(kind), c.describe())
	e.Details = map[string]any{"interceptedBy": c.Interceptor}
	hint := "close or answer the covering layer first"
	if b, ok := c.Interceptor["buttons"].([]any); ok && len(b) > 0 {
		hint += " (its buttons are listed with refs in interceptedBy.buttons)"
	}
	return e.WithHint("%s, or pass force: true to act under it anyway", hint)
}

// notEditable is the error for a field that cannot take text: readonly,
// disabled or not a text field at all.
func notEditable(t Target, c checkResult) error {
	if c.Reason == "disabled" {
		return Errorf(KindElementNotEditable, "%s is disabled", t).
			WithHint("the page has to enable it first (fill the fields before it, or check a snapshot for why)")
	}
	if c.Detail == "readonly" {
		return Errorf(KindElementNotEditable, "%s is readonly", t).
			WithHint("the page does not let this field be edited; look for another control that sets it")
	}
	return Errorf(KindElementNotEditable, "%s is %s", t, c.describe()).
		WithHint("target an input, textarea, select or contenteditable element")
}

var pastTenses = map[string]string{"click": "clicked", "jsclick": "clicked", "check": "checked", "fill": "filled", "type": "typed into", "hover": "hovered", "focus": "focused", "select": "selected", "drag": "dragged", "drop": "dropped onto"}

func pastTense(kind string) string {
	if s, ok := pastTenses[kind]; ok {
		return s
	}
	return "used"
}
func (p *Page) autoForce(el *Element, matched string, last checkResult) *Actionable {
	return &Actionable{El: el, Matched: matched, Point: last.Point, Box: last.Box, AutoForced: true, Reason: last.describe(), Interceptor: last.Interceptor, Via: last.Via}
}

func notFound(t Target, timeout time.Duration) error {
	e := Errorf(KindElementNotFound, "no element matches %s (waited %s)", t, timeout.Round(100*time.Millisecond))
	e.Details = map[string]any{"query": t.Query()}
	switch {
	case t.Text != "":
		e.WithHint("check the spelling against a snapshot, or pass exact: false")
	default:
		e.WithHint("take a snapshot and target the element by its ref")
	}
	return e
}

func notActionable(t Target, kind string, c checkResult, timeout time.Duration) error {
	e := Errorf(KindTimeout, "%s did not become ready to %s within %s: it is %s", t, kind, timeout.Round(100*time.Millisecond), c.describe())
	if c.Interceptor != nil {
		e.Details = map[string]any{"interceptor": c.Interceptor}
	}
	switch c.Reason {
	case "hidden", "pointer-events":
		e.WithHint("no user could %s it now: make it visible first (open its menu or section), or pass force: true to act on it anyway", kind)
	case "disabled":
		e.WithHint("the page has to enable it first; check a snapshot for what it is waiting for")
	case "covered":
		e.WithHint("dismiss what covers it first, or pass force: true")
	}
	return e
}
