package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
)

// captureAhead is the post-command capture taken the moment the command's
// one action settles (Page.CaptureAhead): it goes out with the action's
// settle, in the same round trip, instead of after its answer.
type captureAhead struct {
	// options gives the capture's options when it is sent (the diff's
	// baseline, whose refs they list, may be read after CaptureAhead);
	// opts are those it was sent with.
	options func() CaptureOptions
	opts    CaptureOptions
	// settled is when the action's settle answered: the capture was taken
	// then, and is used only while fresh (aheadFresh).
	settled time.Time
	// signal names the event the action's settle sends when it is done
	// (watch.js watchSettle); set once the capture is sent.
	signal string
	sess   *Session
	world  runtime.ExecutionContextID
	wait   func(ctx context.Context, res any) error
}

// aheadFresh is how long after the action's settle its capture taken
// ahead still stands for the page after the command.
const aheadFresh = 50 * time.Millisecond

// CaptureAhead asks for the capture PostCapture(opts()) to be taken as the
// next action settles, when the program's one step is that action and the
// capture follows it at once: PostCapture with the same options then
// answers with it. opts is called when the capture is sent. It
// is dropped when the action does more than settle (navigates, opens a
// tab, waits on, a click misses and falls back, it fails), when another
// action starts, and when the program ends.
func (p *Page) CaptureAhead(opts func() CaptureOptions) {
	p.mu.Lock()
	p.ahead = &captureAhead{options: opts}
	p.mu.Unlock()
}

// sendCaptureAhead sends the capture CaptureAhead asked for, to be taken
// when the settle of w's action signals, and returns the signal for the
// settle ("" when none was sent: not asked for, not in the top document,
// or the watch or the document's listener scan is not ready).
func (p *Page) sendCaptureAhead(ctx context.Context, w *actionWatch) string {
	p.mu.Lock()
	a := p.ahead
	p.mu.Unlock()
	if a == nil || a.signal != "" || !w.armed || p.Frames().InChild() || !p.listenersScanned(ctx) {
		return ""
	}
	sess, world, err := p.engineExec(ctx)
	if err != nil {
		return ""
	}
	opts := a.options()
	arg, err := json.Marshal(p.captureArg(opts))
	if err != nil {
		return ""
	}
	signal := newSignal()
	expr := engineGuarded(epCaptureAfter.js()+"("+jsString(signal)+", "+string(arg)+")", "null")
	wait, err := sess.Send(ctx, runtime.CommandEvaluate, runtime.EvaluateParams{
		Expression: expr, ContextID: world, ReturnByValue: ptr(true), AwaitPromise: ptr(true),
	})
	if err != nil {
		return ""
	}
	p.mu.Lock()
	a.opts, a.signal, a.sess, a.world, a.wait = opts, signal, sess, world, wait
	p.mu.Unlock()
	return signal
}

// fireCaptureAhead takes the capture sent ahead now, when the page kept
// the settle's event from it (the settle has answered). It is sent, not
// waited for.
func (p *Page) fireCaptureAhead(ctx context.Context, signal string) {
	p.mu.Lock()
	a := p.ahead
	if a != nil && a.signal == signal {
		a.settled = time.Now()
	}
	p.mu.Unlock()
	if a == nil || a.signal != signal {
		return
	}
	a.sess.Send(ctx, runtime.CommandEvaluate, runtime.EvaluateParams{
		Expression: "window.__cdpSkill && " + epCaptureAhead.js() + "(" + jsString(signal) + ")", ContextID: a.world,
	})
}

// dropCaptureAhead forgets the capture asked for or taken ahead: what
// follows is not the capture right after a click that only settled.
func (p *Page) dropCaptureAhead() {
	p.mu.Lock()
	p.ahead = nil
	p.mu.Unlock()
}

// dropSentCaptureAhead forgets a capture taken ahead of an action that
// came before the one starting now.
func (p *Page) dropSentCaptureAhead() {
	p.mu.Lock()
	if p.ahead != nil && p.ahead.signal != "" {
		p.ahead = nil
	}
	p.mu.Unlock()
}

// takeCaptureAhead returns the capture taken ahead with opts, or nil (none
// was sent, it is for other options, or it failed). It ends the change log
// the capture read; a nil answer leaves it to the capture that follows.
func (p *Page) takeCaptureAhead(ctx context.Context, opts CaptureOptions) *Capture {
	p.mu.Lock()
	a := p.ahead
	p.ahead = nil
	var settled time.Time
	if a != nil {
		settled = a.settled
	}
	p.mu.Unlock()
	if a == nil || a.wait == nil || !reflect.DeepEqual(a.opts, opts) {
		return nil
	}
	if settled.IsZero() || time.Since(settled) > aheadFresh {
		// Time passed after the settle (a wait after the action, a slow
		// answer): the page may have changed since.
		return nil
	}
	c := awaitCapture(ctx, a.wait)
	if c == nil {
		return nil
	}
	a.sess.Send(ctx, runtime.CommandEvaluate, runtime.EvaluateParams{
		Expression: "window.__cdpSkill && " + epCaptureLogEnd.js() + "()", ContextID: a.world,
	})
	return c
}

// awaitCapture waits for the answer of a postCapture sent on its own and
// decodes it; nil when it failed or the engine was not there.
func awaitCapture(ctx context.Context, wait func(context.Context, any) error) *Capture {
	var res runtime.EvaluateResult
	if err := wait(ctx, &res); err != nil || res.ExceptionDetails != nil || res.Result == nil || len(res.Result.Value) == 0 {
		return nil
	}
	var c Capture
	if err := json.Unmarshal(res.Result.Value, &c); err != nil || c.Context == nil {
		return nil
	}
	return &c
}

// newSignal returns a name no page can guess for the settle's event.
func newSignal() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "cdpskill-settled-" + hex.EncodeToString(b)
}

// SendBaseline sends the read of the top document's viewport capture (a
// diff's baseline: PostCapture with Viewport) now and returns the wait for
// it, or nil when it sent nothing (the document's click listeners are not
// scanned yet, or its engine's world is not known). The wait answers nil
// when that one call was not the whole read (frames are to be spliced, the
// engine was not installed, the document changed): the caller then reads
// it with PostCapture. It leaves the page's frame alone, so it can go out
// while the page is being resumed (Pool.Attach's ahead).
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
	arg, err := json.Marshal(p.captureArg(CaptureOptions{Viewport: true}))
	if err != nil {
		return nil
	}
	expr := engineGuarded(epPostCapture.js()+"("+string(arg)+")", "null")
	wait, err := p.sess.Send(ctx, runtime.CommandEvaluate, runtime.EvaluateParams{
		Expression: expr, ContextID: world, ReturnByValue: ptr(true), AwaitPromise: ptr(true), UserGesture: ptr(true),
	})
	if err != nil {
		return nil
	}
	return func(ctx context.Context) *Capture {
		c := awaitCapture(ctx, wait)
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
