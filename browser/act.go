package browser

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// action is what one step does to one target, written as the parts that
// differ between actions. Page.perform runs them in the order of DESIGN.md
// "Acting: the promise": resolve the target, wait until it is actionable
// (the blocking-layer rule included), prepare, arm the watch, act, let the
// page settle, verify the outcome on the page's own state, report.
//
// A new action is its kind, its act and, when the page's state can say
// whether it worked, its verify: the template gives it actionability,
// point targets, frames, the watch, the settle and the report.
type action struct {
	// kind picks the engine's actionability checks ("click", "hover",
	// "focus", …) and is the verb of messages.
	kind string
	opts ActionOptions
	// pointer: the input goes to a point of the element. The template
	// accepts a point target (x, y) instead of an element, and fails, with
	// what to do next, when the element has no visible point (unless
	// pointOptional: the action has another way, which act chooses when
	// acting.hasPoint is false).
	pointer, pointOptional bool
	// targetOptional: with no target the action acts where the page is
	// (keys go to the focused element), with no actionability wait.
	targetOptional bool
	// keys: the action sends keys, so with no target the step moves into
	// the frame that holds the keyboard focus first (enterFocusedFrame),
	// and the watch sees what the keys set off there.
	keys bool
	// attachedOnly: the target only has to exist, shown or not (a scroll
	// into view): the template waits for it to be attached (opts.Timeout),
	// with no actionability checks.
	attachedOnly bool
	// quiet: what the action moves is not news (a scroll), so its watch
	// keeps no change log; it still settles what the action starts (a
	// feed's next page, a navigation).
	quiet bool
	// prepare runs when the element (acting.ready, nil for a point or no
	// target) is ready and before the watch is
	// armed: reads what the report needs from the page before the action
	// changes it (setting acting.report and reported, or the template
	// reads the element's report). Optional.
	prepare func(ctx context.Context, s *acting) error
	// act sends the action's input while the watch runs. An error stops
	// the watch and fails the step.
	act func(ctx context.Context, s *acting) error
	// verify judges the outcome once the page settled (and did not load
	// another document): it adds warnings, or fails the step when the
	// action reached something else. Optional.
	verify func(ctx context.Context, s *acting) error
	// offset moves a pointer action's point from the element's centre
	// (or from the point target): a drag end's offsetX and offsetY.
	offset Point
	// to is the second end of a pointer action that has two (a drag's
	// drop): the template resolves it after the first as it does the
	// first (actionability with the blocking-layer rule, point, the page
	// around a frame not covering it), with one watch around the whole
	// act, which finds it in acting.to.
	to *pointerEnd
	// grace is the settle window (SettleWindow when zero).
	grace time.Duration
	// frontAfterNewTab brings the tab back to the front when the action
	// opened another tab that hid it. Not for actions whose target keeps
	// focus: the window's focus coming back fires the element's focus
	// handlers again (a focus that opens a tab would open it twice).
	frontAfterNewTab bool
}

// acting is one action under way: what the template resolved, and what
// the action reports.
type acting struct {
	// t is the step's target.
	t Target
	// ready is the actionable element; nil for a point target.
	ready *Actionable
	// at is where a pointer action's input goes, in the top level
	// viewport that input events use (through every frame on the way);
	// local is the same point in the viewport of the target's frame (what
	// the page's own scripts see); hasPoint says there is one.
	at, local Point
	hasPoint  bool
	// to is the second end of a two-ended action (action.to).
	to *acting
	// w is the action's watch while it acts.
	w        *actionWatch
	report   TargetReport
	reported bool
	effect   Effect
	warnings []string
}

// warn adds a note to the step's answer.
func (s *acting) warn(format string, args ...any) {
	s.warnings = append(s.warnings, fmt.Sprintf(format, args...))
}

// el is the element acted on; nil for a point target.
func (s *acting) el() *Element {
	if s.ready == nil {
		return nil
	}
	return s.ready.El
}

// perform runs ac on t in the template's order and returns what it
// reports. Every phase is bounded by ctx (the step's deadline); input left
// held by a failure is released when the step ends (Page.EndStep).
//
// A target that leaves the page mid-step (its element re-rendered, its
// frame or document replaced) meets one policy (DetachedError): before the
// action's input, the step starts again from the lookup, once; from the
// input on, it is never repeated (the page may have acted) and the error
// says so.
func (p *Page) perform(ctx context.Context, t Target, ac action) (*acting, error) {
	s, err := p.performOnce(ctx, t, ac)
	var d *DetachedError
	if errors.As(err, &d) && !d.Acting && ctx.Err() == nil {
		return p.performOnce(ctx, t, ac)
	}
	return s, err
}

// performOnce is one attempt of perform.
func (p *Page) performOnce(ctx context.Context, t Target, ac action) (*acting, error) {
	if ac.targetOptional && t.IsZero() {
		if ac.keys {
			p.enterFocusedFrame(ctx)
		}
		return p.actOn(ctx, &acting{t: t}, ac)
	}
	s, err := p.resolveEnd(ctx, pointerEnd{Target: t, offset: ac.offset}, ac)
	if err != nil {
		return nil, err
	}
	defer s.release()
	if ac.to != nil {
		return p.actOnTwo(ctx, s, ac)
	}
	if s.hasPoint {
		if s.ready == nil {
			// A point target: the agent chose where the input goes.
			s.at, err = p.toTop(ctx, s.local)
			if err != nil {
				return nil, fmt.Errorf("%s: locate the frame: %w", ac.kind, err)
			}
		} else if s.at, err = p.pointUncovered(ctx, t, s.local, ac); err != nil {
			p.stopPendingWatch(s.ready)
			return nil, err
		}
	}
	return p.actOn(ctx, s, ac)
}

// resolveEnd resolves one end of an action: the element, actionable for
// ac (or only attached), and, for a pointer action, its point in the
// current frame's viewport (acting.local), moved by e.offset. The point
// is not yet converted to the top level (acting.at): every end of the
// action is resolved first, since bringing one into view may scroll
// another.
func (p *Page) resolveEnd(ctx context.Context, e pointerEnd, ac action) (*acting, error) {
	s := &acting{t: e.Target}
	if e.Point != nil {
		if !ac.pointer {
			return nil, Errorf(KindStepValidation, "%s takes an element, not a point (x, y)", ac.kind).
				WithHint("target it by ref, selector, text or label")
		}
		s.local, s.hasPoint = Point{X: e.Point.X + e.offset.X, Y: e.Point.Y + e.offset.Y}, true
		return s, nil
	}
	if ac.attachedOnly {
		el, err := p.waitElement(ctx, e.Target, ac.opts.Timeout)
		if err != nil {
			return nil, err
		}
		s.ready = &Actionable{El: el}
		return s, nil
	}
	kind := ac.kind
	if e.kind != "" {
		kind = e.kind
	}
	ao := ac.opts
	ao.watch = ao.watch || (ac.prepare == nil && ac.to == nil)
	a, err := p.WaitActionable(ctx, e.Target, kind, ao)
	if err != nil {
		return nil, err
	}
	s.ready = a
	if a.AutoForced {
		s.warn("%s was not ready (%s); %s it anyway after the actionability timeout", e.Target, a.Reason, pastTense(kind))
	}
	if !ac.pointer {
		return s, nil
	}
	pt, ok := pointOf(a)
	if ac.pointOptional {
		pt, ok = derefPoint(a.Point)
	}
	switch {
	case !ok && ac.pointOptional:
		return s, nil
	case !ok:
		p.stopPendingWatch(a)
		a.El.release()
		return nil, Errorf(KindElementNotFound, "%s has no visible point to %s: %s", e.Target, kind, a.Reason).
			WithHint("make it visible first (open its container, scroll), or %s a point with x and y", kind)
	}
	if e.offset != (Point{}) && a.Box != nil {
		pt = Point{X: a.Box["x"] + a.Box["width"]/2 + e.offset.X, Y: a.Box["y"] + a.Box["height"]/2 + e.offset.Y}
	}
	s.local, s.hasPoint = pt, true
	return s, nil
}

// release lets go of the end's element.
func (s *acting) release() {
	if s != nil && s.ready != nil {
		s.ready.El.release()
	}
}

// pointUncovered is the template's last step before a pointer action's
// input, shared by every end of a drag: it converts pt (a point of the
// current frame's viewport) to the top-level viewport that input events
// use and, in a frame, waits until the page around the frame does not
// cover it there (framecover.go; not for a forced action, nor for an
// explicit JavaScript click, which no cover stops).
func (p *Page) pointUncovered(ctx context.Context, t Target, pt Point, ac action) (Point, error) {
	at, err := p.toTop(ctx, pt)
	if err != nil {
		return Point{}, fmt.Errorf("%s: locate the frame: %w", ac.kind, err)
	}
	if p.Frames().InChild(ctx) && !ac.opts.Force && ac.kind != "jsclick" {
		if err := p.waitUncovered(ctx, &acting{t: t, at: at}, ac); err != nil {
			return Point{}, err
		}
	}
	return at, nil
}

// derefPoint is *pt, and whether there is one.
func derefPoint(pt *Point) (Point, bool) {
	if pt == nil {
		return Point{}, false
	}
	return *pt, true
}

// actOn runs the phases after actionability: prepare, watch, act, settle,
// verify.
func (p *Page) actOn(ctx context.Context, s *acting, ac action) (*acting, error) {
	if ac.prepare != nil {
		if err := ac.prepare(ctx, s); err != nil {
			p.stopPendingWatch(s.ready)
			return nil, detached(s, ac, "prepare", err)
		}
	}
	if s.ready != nil && !s.reported {
		s.report = p.actionReport(ctx, s.ready)
	}
	var err error
	switch {
	case ac.quiet:
		s.w, err = p.quietWatch(ctx)
	case s.ready != nil:
		s.w, err = p.watchAction(ctx, s.ready)
	default:
		s.w, err = p.watch(ctx)
	}
	if err != nil {
		return nil, detached(s, ac, "watch", err)
	}
	if err := ac.act(ctx, s); err != nil {
		s.w.stop()
		return nil, detached(s, ac, "act", err)
	}
	grace := ac.grace
	if grace == 0 {
		grace = SettleWindow
	}
	s.effect = s.w.finish(ctx, grace)
	if len(s.effect.NewTabs) > 0 && ac.frontAfterNewTab {
		// The new tab opened in this tab's window and hid it; the agent is
		// still working here until it switches.
		p.BringToFront(ctx)
	}
	if s.effect.Warning != "" {
		s.warnings = append(s.warnings, s.effect.Warning)
	}
	if ac.verify != nil && !s.effect.Navigated {
		if err := ac.verify(ctx, s); err != nil {
			return nil, detached(s, ac, "verify", err)
		}
	}
	return s, nil
}

// stopPendingWatch stops a watch armed with a's check that no action will
// take.
func (p *Page) stopPendingWatch(a *Actionable) {
	if a != nil && a.watch != nil {
		a.watch.stop()
		a.watch = nil
	}
}
