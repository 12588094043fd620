package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/input"
)

// DefaultDragSteps is how many mouse moves a drag makes between source and
// target (spec §9.6).
const DefaultDragSteps = 10

// MaxDragSteps bounds the number of intermediate moves.
const MaxDragSteps = 500

// DefaultDragDelay is the pause between the moves of a drag when none is
// given: about one frame, as a hand moves.
const DefaultDragDelay = 16 * time.Millisecond

// dragDwell is how many times, and how far apart, a drag moves over the
// target before it drops, as a hand settles: pages that throttle dragover
// (sortable lists) see a final move there.
const (
	dragDwellMoves = 3
	dragDwellPause = 50 * time.Millisecond
)

// dragStartWait bounds the wait for Chrome to hand over a drag the page
// started (Input.dragIntercepted after dragstart).
const dragStartWait = 2 * time.Second

// Drag methods (spec §9.6).
const (
	DragAuto  = "auto"
	DragMouse = "mouse"
	DragHTML5 = "html5"
)

// DragEnd is one end of a drag: an element (optionally offset from its
// centre) or a viewport point (Target.Point).
type DragEnd struct {
	Target
	// OffsetX and OffsetY move the point from the element's centre.
	OffsetX, OffsetY float64
}

// DragOptions tune a drag.
type DragOptions struct {
	ActionOptions
	// Method is auto (default), mouse or html5.
	Method string
	// Steps is the number of mouse moves along the path (default 10).
	Steps int
	// Delay is the pause between moves.
	Delay time.Duration
	// Value sets a range input to this value instead of reading it from
	// the target point.
	Value *float64
}

// DragResult is the outcome of a drag.
type DragResult struct {
	Dragged bool `json:"dragged"`
	// Method is mouse, html5 (Chrome's own drag and drop), html5-synthetic
	// (DOM drag events dispatched from JavaScript) or range.
	Method string `json:"method"`
	Source Point  `json:"source"`
	Target Point  `json:"target"`
	Steps  int    `json:"steps,omitempty"`
	// Value is a range input's value after the drag, or a slider handle's
	// (role=slider) aria-valuenow.
	Value *float64 `json:"value,omitempty"`
	// SourceMoved says whether the dragged element moved (or left the
	// page); Landed whether it ended at the drop point or inside the drop
	// target; DropAccepted whether an element took the HTML5 drop. Set for
	// element drags, not sliders.
	SourceMoved  *bool `json:"sourceMoved,omitempty"`
	Landed       *bool `json:"landed,omitempty"`
	DropAccepted bool  `json:"dropAccepted,omitempty"`
	// Index is the source's position among its siblings after the drag
	// (0-based), when it stayed in the same list.
	Index      *int `json:"index,omitempty"`
	AutoForced bool `json:"autoForced,omitempty"`
	Effect
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// Drag drags from source to target on the action template (resolve each
// end, actionability, one watch around the act, verify): a range input is
// set to the value under the target; anything else gets a real mouse drag,
// which becomes Chrome's own HTML5 drag and drop when the page starts one,
// and falls back to synthetic HTML5 drag events when the mouse drag
// changed nothing. The verification judges what became of the source.
func (p *Page) Drag(ctx context.Context, source, target DragEnd, o DragOptions) (*DragResult, error) {
	if err := validateDrag(source, target, &o); err != nil {
		return nil, err
	}
	var (
		res     *DragResult
		isRange bool
	)
	ac := action{kind: "drag", opts: o.ActionOptions, pointer: true, offset: Point{X: source.OffsetX, Y: source.OffsetY}}
	if o.Value == nil {
		ac.to = &pointerEnd{Target: target.Target, offset: Point{X: target.OffsetX, Y: target.OffsetY}, kind: "drop"}
	}
	ac.prepare = func(ctx context.Context, s *acting) (err error) {
		res, s.reported = &DragResult{Dragged: true}, true
		isRange, err = p.dragPrepare(ctx, s, o)
		return err
	}
	ac.act = func(ctx context.Context, s *acting) error {
		if isRange {
			return p.dragRange(ctx, s, o, res)
		}
		res.Source, res.Target, res.Steps = s.local, s.to.local, o.Steps
		return p.pointerDrag(ctx, s.local, s.to.local, o, res)
	}
	ac.verify = func(ctx context.Context, s *acting) error {
		if isRange {
			return nil
		}
		return p.verifyDrag(ctx, res)
	}
	s, err := p.perform(ctx, source.Target, ac)
	if err != nil {
		return nil, err
	}
	res.Effect = s.effect
	res.AutoForced = s.ready != nil && s.ready.AutoForced || s.to != nil && s.to.ready != nil && s.to.ready.AutoForced
	res.Warnings = append(s.warnings, res.Warnings...)
	return res, nil
}

// dragPrepare tells a range input source (set, not dragged) from the
// rest, and, for a pointer drag, records its source and drop point in the
// page for verifyDrag, before the watch is armed.
func (p *Page) dragPrepare(ctx context.Context, s *acting, o DragOptions) (isRange bool, err error) {
	isRange, disabled, err := p.rangeSource(ctx, s.el())
	switch {
	case err != nil:
		return false, err
	case isRange && disabled:
		return false, Errorf(KindElementNotEditable, "the slider is disabled")
	case isRange:
		return true, nil
	case o.Value != nil:
		return false, Errorf(KindStepValidation, "value only applies when the source is a range input (<input type=range>)").
			WithAdvice(sliderKeys.After("for a slider that is not one (role=slider), fill it with the number, or "))
	}
	return false, p.dragMark(ctx, s.el(), s.local, s.to.local)
}

const dragEndForms = "a selector, a ref, {selector|ref, offsetX, offsetY} or {x, y}"

// validateDrag checks the ends and options and fills in defaults.
func validateDrag(source, target DragEnd, o *DragOptions) error {
	if source.IsZero() {
		return Errorf(KindStepValidation, "drag needs a source: %s", dragEndForms)
	}
	if target.IsZero() && o.Value == nil {
		return Errorf(KindStepValidation, "drag needs a target: %s", dragEndForms)
	}
	return normalizeDragOptions(o)
}

// rangeSource reports whether the source is a range input (and disabled).
func (p *Page) rangeSource(ctx context.Context, el *Element) (isRange, disabled bool, err error) {
	if el == nil {
		return false, false, nil
	}
	var kind struct{ Range, Disabled bool }
	if err := el.call(ctx, &kind, epDragSource); err != nil {
		return false, false, fmt.Errorf("drag: inspect the source: %w", err)
	}
	return kind.Range, kind.Disabled, nil
}

func normalizeDragOptions(o *DragOptions) error {
	switch o.Method {
	case "":
		o.Method = DragAuto
	case DragAuto, DragMouse, DragHTML5:
	default:
		return Errorf(KindStepValidation, "drag method %q is not auto, mouse or html5", o.Method)
	}
	switch {
	case o.Steps == 0:
		o.Steps = DefaultDragSteps
	case o.Steps < 0 || o.Steps > MaxDragSteps:
		return Errorf(KindStepValidation, "drag steps must be between 1 and %d, not %d", MaxDragSteps, o.Steps)
	}
	return nil
}

// dragRange sets a range input (s's element) from the drop point or
// o.Value.
func (p *Page) dragRange(ctx context.Context, s *acting, o DragOptions, res *DragResult) error {
	arg := map[string]any{}
	if o.Value != nil {
		arg["value"] = *o.Value
	} else {
		arg["x"], arg["y"] = s.to.local.X, s.to.local.Y
	}
	var out struct {
		Value   float64 `json:"value"`
		Changed bool    `json:"changed"`
		X, Y    float64
	}
	if err := s.el().call(ctx, &out, epSetRange, arg); err != nil {
		return fmt.Errorf("drag: set the slider: %w", err)
	}
	res.Method, res.Source, res.Target, res.Value = "range", s.local, Point{X: out.X, Y: out.Y}, &out.Value
	if !out.Changed {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the slider was already at %g", out.Value))
	}
	return nil
}

// dragPath returns steps points from just after from up to to.
func dragPath(from, to Point, steps int) []Point {
	path := make([]Point, steps)
	for i := range path {
		f := float64(i+1) / float64(steps)
		path[i] = Point{X: from.X + (to.X-from.X)*f, Y: from.Y + (to.Y-from.Y)*f}
	}
	return path
}

// dragMove moves the mouse with the left button held to a point of the
// top-level viewport.
func (p *Page) dragMove(ctx context.Context, top Point) error {
	_, err := cdp.Call(ctx, p.sess, input.DispatchMouseEvent, input.DispatchMouseEventParams{
		Type: input.DispatchMouseEventTypeMouseMoved, X: top.X, Y: top.Y, Button: input.MouseButtonLeft, Buttons: 1,
	})
	if err != nil {
		return fmt.Errorf("drag: mouse move: %w", err)
	}
	return nil
}

// dispatchDrag sends one of Chrome's drag events (dragEnter, dragOver,
// drop, dragCancel) with the intercepted drag data, at a point of the
// top-level viewport.
func (p *Page) dispatchDrag(ctx context.Context, typ input.DispatchDragEventType, top Point, data *input.DragData) error {
	if _, err := cdp.Call(ctx, p.sess, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: top.X, Y: top.Y, Data: data}); err != nil {
		return fmt.Errorf("drag: %s: %w", typ, err)
	}
	return nil
}

// pointerDrag presses at from, moves to to in o.Steps paced moves, dwells
// over the target and releases, with Chrome's drag interception on: when
// the page starts an HTML5 drag, Chrome hands its data over and the drag
// finishes with drag events. from and to are points of the current
// frame's viewport (the page's own, for dragMark and synthetic events).
//
// Whatever fails, the drag ends with the button released, no drag session
// open and interception off; a phase Chrome never acknowledges ends it at
// the step's deadline with a TimeoutError naming the phase.
func (p *Page) pointerDrag(ctx context.Context, from, to Point, o DragOptions, res *DragResult) (err error) {
	// Input events take top-level viewport points.
	xf := identity
	if p.Frames().InChild(ctx) {
		if xf, err = p.frameTransform(ctx); err != nil {
			return fmt.Errorf("drag: locate the frame: %w", err)
		}
	}
	d := &dragRun{p: p, o: o, xf: xf}
	if err := d.start(ctx); err != nil {
		return err
	}
	phase := "start"
	defer func() {
		if err != nil {
			err = unacknowledged(ctx, "drag", phase, err)
			d.abort(ctx)
		}
		d.stop(ctx)
	}()
	phase = "mouse move to the source"
	if err := p.in.mouseMove(ctx, d.top(from), 0); err != nil {
		return err
	}
	phase = "mouse press on the source"
	if err := p.in.mouseButton(ctx, d.top(from), true); err != nil {
		return fmt.Errorf("drag: press: %w", err)
	}
	delay := o.Delay
	if delay <= 0 {
		delay = DefaultDragDelay
	}
	for i, pt := range dragPath(from, to, o.Steps) {
		phase = fmt.Sprintf("move %d of %d towards the target", i+1, o.Steps)
		if err := Sleep(ctx, delay); err != nil {
			return err
		}
		if err := d.move(ctx, pt); err != nil {
			return err
		}
	}
	phase = "moves over the target before the drop"
	if err := d.dwell(ctx, to); err != nil {
		return err
	}
	phase = "drop on the target"
	return d.finish(ctx, from, to, res)
}

// dwell holds the drag over the target for a moment, moving on the spot
// (a pixel to and fro for the mouse), before the drop.
func (d *dragRun) dwell(ctx context.Context, to Point) error {
	for i := range dragDwellMoves {
		if err := Sleep(ctx, dragDwellPause); err != nil {
			return err
		}
		pt := to
		if d.data == nil && i%2 == 1 {
			pt.X++
		}
		if err := d.move(ctx, pt); err != nil {
			return err
		}
	}
	return nil
}

// dragRun is one pointer drag with drag interception on.
type dragRun struct {
	p *Page
	o DragOptions
	// xf maps the current frame's viewport to the top-level one.
	xf affine
	// data is the drag Chrome handed over, once the page started one.
	data   *input.DragData
	events <-chan jsonv2.Value
	unsub  func()
	// noHTML5 is set once the page cancelled its dragstart, or a started
	// drag was never handed over: stop asking.
	noHTML5 bool
	// canceled is set when method mouse cancelled a drag the page started.
	canceled bool
}

// top converts a frame point to the top-level viewport.
func (d *dragRun) top(pt Point) Point { return d.xf.apply(pt) }

func (d *dragRun) start(ctx context.Context) error {
	d.events, d.unsub = d.p.sess.Subscribe(input.DragIntercepted.Method)
	d.p.in.trackIntercept(true)
	if _, err := cdp.Call(ctx, d.p.sess, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		d.stop(ctx)
		return fmt.Errorf("drag: intercept drags: %w", err)
	}
	if err := d.p.engineCall(ctx, nil, epDragWatch); err != nil {
		d.stop(ctx)
		return fmt.Errorf("drag: watch the page: %w", err)
	}
	return nil
}

// stop turns drag interception off (the browser process answers, even
// while the page is busy).
func (d *dragRun) stop(ctx context.Context) {
	cctx, cancel := cleanupCtx(ctx)
	defer cancel()
	if _, err := cdp.Call(cctx, d.p.sess, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false}); err == nil {
		d.p.in.trackIntercept(false)
	}
	d.unsub()
}

// abort ends a drag that failed half way, so that the page is not left
// with a drag in progress or the button held: the drag Chrome handed over
// is cancelled and the button released (see Input.ReleaseAll), and, when
// the page still answers, its drag watch stopped.
func (d *dragRun) abort(ctx context.Context) {
	d.p.in.ReleaseAll(ctx)
	if ctx.Err() == nil {
		cctx, cancel := cleanupCtx(ctx)
		defer cancel()
		d.p.engineCall(cctx, nil, epDragReport)
	}
}

// move moves the mouse, or, once Chrome handed a drag over, the drag.
func (d *dragRun) move(ctx context.Context, pt Point) error {
	if d.data != nil {
		return d.p.dispatchDrag(ctx, input.DispatchDragEventTypeDragOver, d.top(pt), d.data)
	}
	if err := d.p.dragMove(ctx, d.top(pt)); err != nil {
		return err
	}
	data, err := d.intercepted(ctx)
	if err != nil || data == nil {
		return err
	}
	if d.o.Method == DragMouse {
		d.canceled, d.noHTML5 = true, true
		return d.p.dispatchDrag(ctx, input.DispatchDragEventTypeDragCancel, d.top(pt), data)
	}
	d.data = data
	d.p.in.trackDrag(data, d.top(pt))
	return d.p.dispatchDrag(ctx, input.DispatchDragEventTypeDragEnter, d.top(pt), data)
}

// intercepted returns the drag data once Chrome intercepted a drag the
// page started, or nil while none started.
func (d *dragRun) intercepted(ctx context.Context) (*input.DragData, error) {
	if d.noHTML5 {
		return nil, nil
	}
	if data := d.take(0); data != nil {
		return data, nil
	}
	var st struct{ Started, Cancelled bool }
	if err := d.p.engineCall(ctx, &st, epDragStarted); err != nil {
		return nil, fmt.Errorf("drag: read the page: %w", err)
	}
	switch {
	case st.Cancelled:
		d.noHTML5 = true
	case st.Started:
		data := d.take(dragStartWait)
		if data == nil {
			d.noHTML5 = true
		}
		return data, nil
	}
	return nil, nil
}

// take returns the data of an Input.dragIntercepted event, waiting up to
// wait for one (0: only what already arrived).
func (d *dragRun) take(wait time.Duration) *input.DragData {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	for {
		var raw jsonv2.Value
		var ok bool
		if timeout == nil {
			select {
			case raw, ok = <-d.events:
			default:
				return nil
			}
		} else {
			select {
			case raw, ok = <-d.events:
			case <-timeout:
				return nil
			}
		}
		if !ok {
			return nil
		}
		var ev input.EventDragIntercepted
		if decode(raw, &ev) == nil && ev.Data != nil {
			return ev.Data
		}
	}
}

// finish drops (or releases) at to and decides the method.
func (d *dragRun) finish(ctx context.Context, from, to Point, res *DragResult) error {
	p := d.p
	if d.data != nil {
		if err := p.dispatchDrag(ctx, input.DispatchDragEventTypeDragOver, d.top(to), d.data); err != nil {
			return err
		}
		if err := p.dispatchDrag(ctx, input.DispatchDragEventTypeDrop, d.top(to), d.data); err != nil {
			return err
		}
		p.in.trackDrag(nil, Point{})
	}
	if err := p.in.mouseButton(ctx, d.top(to), false); err != nil {
		return fmt.Errorf("drag: release: %w", err)
	}
	var rep struct {
		Started, Cancelled bool
		Mutations          int
	}
	if err := p.engineCall(ctx, &rep, epDragReport); err != nil && KindOf(err) != KindContextDestroyed {
		return fmt.Errorf("drag: read the page: %w", err)
	}
	if d.canceled {
		res.Warnings = append(res.Warnings, "the page started an HTML5 drag, which method mouse does not perform; cancelled it (use method auto or html5)")
	}
	// A drag the page started but Chrome never handed over did not drop:
	// whatever the mouse changed, finish it with synthetic events.
	html5Lost := rep.Started && !rep.Cancelled
	switch {
	case d.data != nil:
		res.Method = DragHTML5
	case d.o.Method == DragMouse || (d.o.Method == DragAuto && !html5Lost && rep.Mutations > 0):
		res.Method = DragMouse
	default:
		return p.syntheticDrag(ctx, from, to, res)
	}
	return nil
}

// syntheticDrag dispatches the HTML5 drag events from JavaScript: the
// fallback when the real drag had no visible effect.
func (p *Page) syntheticDrag(ctx context.Context, from, to Point, res *DragResult) error {
	var out struct {
		Error     string `json:"error"`
		Cancelled bool   `json:"cancelled"`
		Source    string `json:"source"`
		Target    string `json:"target"`
		Accepted  bool   `json:"accepted"`
	}
	if err := p.engineCall(ctx, &out, epSyntheticDrag, from, to); err != nil {
		return fmt.Errorf("drag: synthetic drag events: %w", err)
	}
	if out.Error != "" {
		return Errorf(KindElementNotFound, "drag: %s", out.Error)
	}
	res.Method = "html5-synthetic"
	switch {
	case out.Cancelled:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the mouse drag changed nothing, and %s cancelled the synthetic dragstart", out.Source))
	case !out.Accepted:
		res.Warnings = append(res.Warnings, fmt.Sprintf("the mouse drag changed nothing; dispatched HTML5 drag events, but %s did not accept the drop (its dragover was not cancelled)", out.Target))
	}
	return nil
}
