package browser

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
)

// SendBaseline sends the read of the top document's viewport capture (a
// diff's baseline: PostCapture with Viewport) now and returns the wait for
// it, or nil when it sent nothing (the document's click listeners are not
// scanned yet, or its engine's world is not known). The wait answers nil
// when that one call was not the whole read (frames are to be spliced, the
// engine was not installed, the document changed): the caller then reads
// it with PostCapture. It runs in the top document, so it can go out
// while the page is being resumed (Pool.Attach's ahead). The read carries
// the document's URL: it stands for the program's first URL read
// (StartURL), which then costs no message of its own.
//
// What the page is sent after it runs after it: an action's lookup may
// follow at once, without waiting for the answer (see BeforeChange).
func (p *Page) SendBaseline(ctx context.Context) func(context.Context) *Capture {
	world, err := p.worldIn(ctx, p.sess, cdp.FrameID(p.TargetID))
	if err != nil {
		return nil
	}
	if !p.scannedIn(p.sess, world) {
		return nil
	}
	arg, err := json.Marshal(p.captureArg(CaptureOptions{Viewport: true, Baseline: true}))
	if err != nil {
		return nil
	}
	// Without the engine, the URL still comes back.
	expr := engineGuarded(epPostCapture.js()+"("+string(arg)+")", "({context: {url: location.href}})")
	wait, err := p.sess.Send(ctx, runtime.CommandEvaluate, runtime.EvaluateParams{
		Expression: expr, ContextID: world, ReturnByValue: ptr(true), AwaitPromise: ptr(true), UserGesture: ptr(true),
	})
	if err != nil {
		return nil
	}
	answer := &sentAnswer{wait: wait}
	p.setStartURL(answer.url(p))
	return func(ctx context.Context) *Capture {
		c := decodeCapture(answer.get(ctx))
		if c == nil || c.Viewport == nil || c.Viewport.Frames > 0 {
			return nil
		}
		p.storeSeq(c.Seq)
		c.Seq = nil
		return c
	}
}

// BeforeChange has fn run once, before the next action changes the page:
// when the action has looked its target up and checked it (the first
// lookup of WaitActionable), or as it arms its watch without one (a click
// at a point). A diff's baseline sent ahead (SendBaseline) is then read
// with the lookup in flight behind it, not before it goes out. A nil fn
// forgets the one set.
func (p *Page) BeforeChange(fn func(context.Context)) {
	p.mu.Lock()
	p.beforeChange = fn
	p.mu.Unlock()
}

// runBeforeChange runs and forgets the BeforeChange function, if any.
func (p *Page) runBeforeChange(ctx context.Context) {
	p.mu.Lock()
	fn := p.beforeChange
	p.beforeChange = nil
	p.mu.Unlock()
	if fn != nil {
		fn(ctx)
	}
}

// sentAnswer is the answer of an evaluation sent ahead, waited for once
// and shared by those who read it.
type sentAnswer struct {
	mu   sync.Mutex
	wait func(context.Context, any) error
	done bool
	res  runtime.EvaluateResult
	err  error
}

// get waits for the answer (once) and returns it.
func (a *sentAnswer) get(ctx context.Context) (*runtime.EvaluateResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.done {
		a.err = a.wait(ctx, &a.res)
		a.done = true
	}
	return &a.res, a.err
}

// url reads the document's URL from the answer, or, when it has none (the
// evaluation failed), from the page at the time it is asked for: before
// the program's first change to the page (see BeforeChange).
func (a *sentAnswer) url(p *Page) urlRead {
	return func(ctx context.Context) (string, error) {
		var c struct {
			Context *struct {
				URL string `json:"url"`
			} `json:"context"`
		}
		res, err := a.get(ctx)
		if err == nil && res.ExceptionDetails == nil && res.Result != nil && json.Unmarshal(res.Result.Value, &c) == nil && c.Context != nil {
			return c.Context.URL, nil
		}
		return p.URL(ctx)
	}
}
