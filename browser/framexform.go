package browser

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// affine maps points of one viewport to another: x' = a·x + c·y + e,
// y' = b·x + d·y + f. Frames can be moved, scaled and rotated by CSS
// transforms on their iframes, so a frame's points reach the top-level
// viewport (where input events land) through one affine map per renderer.
type affine struct{ a, b, c, d, e, f float64 }

var identity = affine{a: 1, d: 1}

func (m affine) apply(p Point) Point {
	return Point{X: m.a*p.X + m.c*p.Y + m.e, Y: m.b*p.X + m.d*p.Y + m.f}
}

// then is m followed by n.
func (m affine) then(n affine) affine {
	return affine{
		a: n.a*m.a + n.c*m.b, b: n.b*m.a + n.d*m.b,
		c: n.a*m.c + n.c*m.d, d: n.b*m.c + n.d*m.d,
		e: n.a*m.e + n.c*m.f + n.e, f: n.b*m.e + n.d*m.f + n.f,
	}
}

// localRoot reports whether f is the root frame of its own renderer (an
// out-of-process iframe's session).
func (f *frameRef) localRoot() bool { return f.oopif && f.ctxID == 0 }

// frameTransform maps the current frame's viewport to the top-level one.
// Chromium reports an element's box in the viewport of its renderer's root
// frame, through every same-process iframe (transforms included), so one
// map per renderer boundary suffices: the iframe's content quad there, as
// the image of the frame's viewport.
func (p *Page) frameTransform(ctx context.Context) (affine, error) {
	m := identity
	f := p.frameIn(ctx)
	for f != nil {
		lvl, err := p.frameLevel(ctx, f)
		if err != nil {
			return m, err
		}
		m = m.then(lvl)
		f = f.parent
		for f != nil && !f.localRoot() {
			f = f.parent
		}
	}
	return m, nil
}

// frameLevel maps frame f's viewport to the viewport of the root frame of
// its parent's renderer.
func (p *Page) frameLevel(ctx context.Context, f *frameRef) (affine, error) {
	parentSess := p.sess
	if f.parent != nil {
		parentSess = f.parent.sess
	}
	owner, err := cdp.Call(ctx, parentSess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: f.id})
	if err != nil {
		return identity, frameGoneError(f, "find its iframe element", err)
	}
	box, err := cdp.Call(ctx, parentSess, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: owner.BackendNodeID})
	if err != nil || box.Model == nil || len(box.Model.Content) < 8 {
		return identity, frameGoneError(f, "measure its iframe element", err)
	}
	res, err := cdp.Call(ctx, f.sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "[innerWidth, innerHeight]", ContextID: f.ctxID, ReturnByValue: ptr(true)})
	if err != nil || res.Result == nil {
		return identity, frameGoneError(f, "measure its viewport", err)
	}
	var size [2]float64
	if json.Unmarshal(res.Result.Value, &size) != nil || size[0] <= 0 || size[1] <= 0 {
		return identity, Errorf(KindElementNotFound, "the frame %s has no size: its iframe is hidden", f.describe()).
			WithHint("show the iframe first (scroll to it, open what hides it)")
	}
	q := box.Model.Content
	return affine{
		a: (q[2] - q[0]) / size[0], b: (q[3] - q[1]) / size[0],
		c: (q[6] - q[0]) / size[1], d: (q[7] - q[1]) / size[1],
		e: q[0], f: q[1],
	}, nil
}

// describe names a frame for messages.
func (f *frameRef) describe() string {
	if f.url != "" {
		return "(" + f.url + ")"
	}
	return string(f.id)
}

// frameGoneError is the typed error for a frame the page no longer shows
// where it was, instead of CDP's text.
func frameGoneError(f *frameRef, doing string, err error) error {
	e := Errorf(KindContextDestroyed, "cannot %s for the frame %s: the frame navigated, was removed or is not laid out", doing, f.describe()).
		WithHint("take a new snapshot; if you switched frames, switch again with the frame step")
	e.Err = err
	return e
}

// frameGone turns the error of a call that failed because the current
// frame went away (its context or out-of-process session) into a typed
// error saying so; other errors pass unchanged.
func (p *Page) frameGone(ctx context.Context, err error) error {
	f := p.frameIn(ctx)
	if f == nil || err == nil || KindOf(err) != KindContextDestroyed {
		return err
	}
	var typed *Error
	// A call on a removed out-of-process frame's session fails as if its
	// tab were closed: it is the frame that went.
	var pe *ProtocolError
	ownSession := f.sess != p.sess && errors.As(err, &pe)
	if errors.As(err, &typed) && !ownSession {
		return err
	}
	e := Errorf(KindContextDestroyed, "the frame %s this step runs in is gone: it navigated or was removed", f.describe()).
		WithHint("switch to the top frame (or another frame) with the frame step, and take a new snapshot")
	e.Err = err
	return e
}
