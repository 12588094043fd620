package browser

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp/kb"
)

// No input state outlives its step: Input remembers what it holds down (a
// mouse button, a key) and whether Chrome's drag interception is on, and
// EndStep lets go of all of it, whatever the step did or how it failed. The
// actions release what they pressed themselves; EndStep is the backstop the
// runtime calls after every step.

// cleanupBudget bounds the clean-up after a failed or timed-out action: it
// runs past the step's deadline, so it must be short, and it never waits
// for a renderer that stopped answering (the releases are queued in order
// behind what Chrome has not acknowledged yet, and reach the page when it
// answers again).
const cleanupBudget = 300 * time.Millisecond

// cleanupCtx is a context for clean-up calls: not cancelled with ctx (the
// step may have run out of time), and bounded by cleanupBudget.
func cleanupCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), cleanupBudget)
}

// heldInput is what Input holds down between a press and its release.
type heldInput struct {
	// buttons are the mouse buttons held, with where they went down.
	buttons map[input.MouseButton]Point
	// keys are the keys held down, by code (or key when it has none).
	keys map[string]*kb.Key
	// intercepting is set while Input.setInterceptDrags is on.
	intercepting bool
	// drag is the HTML5 drag Chrome handed over and that has not been
	// dropped or cancelled yet.
	drag   *input.DragData
	dragAt Point
	// notes are warnings for the step's answer (see TakeNotes).
	notes []string
	// tabs watches for tabs opened while the step pressed keys.
	tabs *tabWatch
}

func (in *Input) state(f func(h *heldInput)) {
	in.hmu.Lock()
	defer in.hmu.Unlock()
	if in.held.buttons == nil {
		in.held.buttons = map[input.MouseButton]Point{}
		in.held.keys = map[string]*kb.Key{}
	}
	f(&in.held)
}

// note adds a warning for the step's answer.
func (in *Input) note(msg string) {
	in.state(func(h *heldInput) { h.notes = append(h.notes, msg) })
}

// TakeNotes returns and forgets the warnings input left for the step's
// answer (a browser shortcut the page did not handle, input released at
// the step's end).
func (in *Input) TakeNotes() []string {
	var out []string
	in.state(func(h *heldInput) { out, h.notes = h.notes, nil })
	return out
}

func keyID(k *kb.Key) string {
	if k.Code != "" {
		return k.Code
	}
	return k.Key
}

// trackKey records a key going down or up.
func (in *Input) trackKey(k *kb.Key, down bool) {
	in.state(func(h *heldInput) {
		if down {
			h.keys[keyID(k)] = k
		} else {
			delete(h.keys, keyID(k))
		}
	})
}

// trackButton records a mouse button going down or up.
func (in *Input) trackButton(b input.MouseButton, at Point, down bool) {
	if b == "" || b == input.MouseButtonNone {
		return
	}
	in.state(func(h *heldInput) {
		if down {
			h.buttons[b] = at
		} else {
			delete(h.buttons, b)
		}
	})
}

// trackDrag records the drag Chrome handed over (nil once it ended).
func (in *Input) trackDrag(data *input.DragData, at Point) {
	in.state(func(h *heldInput) { h.drag, h.dragAt = data, at })
}

// trackIntercept records whether drag interception is on.
func (in *Input) trackIntercept(on bool) {
	in.state(func(h *heldInput) { h.intercepting = on })
}

// Holding reports whether anything is held: a button, a key, a drag, or
// drag interception.
func (in *Input) Holding() bool {
	var busy bool
	in.state(func(h *heldInput) {
		busy = len(h.buttons) > 0 || len(h.keys) > 0 || h.drag != nil || h.intercepting
	})
	return busy
}

// ReleaseAll lets go of everything input holds: it cancels the drag Chrome
// handed over, releases the mouse buttons and keys, and turns drag
// interception off. The events are sent in order without waiting for the
// renderer (a busy page gets them when it answers again); the whole takes
// at most cleanupBudget. It returns what it released, for a warning ("" when
// nothing was held).
func (in *Input) ReleaseAll(ctx context.Context) string {
	var h heldInput
	in.state(func(s *heldInput) {
		h = heldInput{buttons: s.buttons, keys: s.keys, intercepting: s.intercepting, drag: s.drag, dragAt: s.dragAt}
		s.buttons, s.keys, s.intercepting, s.drag = map[input.MouseButton]Point{}, map[string]*kb.Key{}, false, nil
	})
	if len(h.buttons) == 0 && len(h.keys) == 0 && h.drag == nil && !h.intercepting {
		return ""
	}
	cctx, cancel := cleanupCtx(ctx)
	defer cancel()
	var waits []func(context.Context, any) error
	send := func(method string, params any) {
		if wait, err := in.p.sess.Send(cctx, method, params); err == nil {
			waits = append(waits, wait)
		}
	}
	var what []string
	if h.drag != nil {
		send(input.CommandDispatchDragEvent, input.DispatchDragEventParams{Type: input.DispatchDragEventTypeDragCancel, X: h.dragAt.X, Y: h.dragAt.Y, Data: h.drag})
		what = append(what, "cancelled the drag in progress")
	}
	for b, at := range h.buttons {
		send(input.CommandDispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: at.X, Y: at.Y, Button: b, ClickCount: 1})
		what = append(what, "released the "+string(b)+" mouse button")
	}
	for _, k := range h.keys {
		send(input.CommandDispatchKeyEvent, input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: k.Key, Code: k.Code,
			WindowsVirtualKeyCode: k.Windows, NativeVirtualKeyCode: k.Native, Location: keyLocation(k.Code), IsKeypad: keypad(k.Code)})
		what = append(what, "released the "+k.Key+" key")
	}
	if h.intercepting {
		// Answered by the browser process, even while the page is busy.
		send(input.CommandSetInterceptDrags, input.SetInterceptDragsParams{Enabled: false})
	}
	// A step that ran out of time does not wait at all: its page may not
	// answer, and the events are on their way in order.
	for _, w := range waits {
		if ctx.Err() != nil || w(cctx, nil) != nil {
			break // the page is busy: the rest is queued behind
		}
	}
	if len(what) == 0 {
		return ""
	}
	s := what[0]
	for _, w := range what[1:] {
		s += ", " + w
	}
	return s
}

// EndStep is called after every step: it releases whatever input the step
// left held (a step that failed half way through a gesture) and returns the
// warnings input left for the step's answer.
func (p *Page) EndStep(ctx context.Context) []string {
	if p == nil {
		return nil
	}
	p.in.frontAfterKeys(ctx, true)
	notes := p.in.TakeNotes()
	if released := p.in.ReleaseAll(ctx); released != "" {
		notes = append(notes, "the step ended with input still held, so it was let go: "+released)
	}
	return notes
}

// discoverTargets turns on Chrome's announcements of new tabs for the
// connection (once).
func (p *Page) discoverTargets(ctx context.Context) {
	if _, done := discoverOnce.Load(p.Browser); done {
		return
	}
	if _, err := cdp.Call(ctx, p.Browser.Session(), target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err == nil {
		discoverOnce.Store(p.Browser, struct{}{})
	}
}
