package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"time"

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
	if a == nil || a.signal != "" || !w.armed || p.Frames().InChild(ctx) || !p.listenersScanned(ctx) {
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
	return decodeCapture(&res, wait(ctx, &res))
}

// decodeCapture decodes the answer of a postCapture; nil when it failed or
// the engine was not there.
func decodeCapture(res *runtime.EvaluateResult, err error) *Capture {
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || len(res.Result.Value) == 0 {
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
