package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// The in-page engine runs in an isolated world of each document: the
// page's scripts share its DOM but not its JavaScript globals, so a page
// that patches window.__cdpSkill, JSON.stringify, Array.prototype or
// getComputedStyle cannot forge what a snapshot shows or what an action
// verified. The page's own world keeps only what must see the page's
// JavaScript: the action watch (it wraps the page's setTimeout and fetch)
// and agent-supplied JavaScript (pageFunction, poll, pipeline), which is
// the page's code by design; neither leaves a name there (watchhandle.go,
// pagechannel.go). The elements with click listeners are found through
// CDP and marked in this world (listeners.go). Elements cross between the
// worlds by backend node id.
//
// The world is named, so every cdp-skill process (and the resident one)
// finds the same world, and the engine's refs in it, again.
const engineWorldName = "__cdp_skill__"

// worldKey names a frame's document as a session sees it.
type worldKey struct {
	sess  *Session
	frame cdp.FrameID
}

// currentFrame returns the session and frame id of the frame calls under
// ctx run in.
func (p *Page) currentFrame(ctx context.Context) (*Session, cdp.FrameID) {
	f := p.frameIn(ctx)
	if f == nil {
		return p.sess, cdp.FrameID(p.TargetID)
	}
	return f.sess, f.id
}

// engineExec returns the session and the execution context of the engine's
// world in the current frame, creating the world on first use in a
// document.
func (p *Page) engineExec(ctx context.Context) (*Session, runtime.ExecutionContextID, error) {
	sess, frame := p.currentFrame(ctx)
	id, err := p.worldIn(ctx, sess, frame)
	if err != nil {
		if moved := p.followFrame(ctx); moved != nil {
			sess = moved.sess
			id, err = p.worldIn(ctx, sess, moved.id)
		}
	}
	return sess, id, err
}

// followFrame moves the running step to where its frame is now when the
// frame moved to another renderer while the step ran (it loaded a page of
// another site, or came back): the step goes on in the frame's new
// document. It returns the moved frame, or nil when the frame did not move
// (it is the top document, was removed, or the tab closed).
func (p *Page) followFrame(ctx context.Context) *frameRef {
	f := p.frameIn(ctx)
	if f == nil || p.TabClosed() {
		return nil
	}
	g := p.now(ctx, f)
	if g.sess == f.sess {
		return nil
	}
	replaceFrame(ctx, f, g)
	return g
}

// worldIn returns the execution context of the engine's world in a frame
// a session hosts.
func (p *Page) worldIn(ctx context.Context, sess *Session, frame cdp.FrameID) (runtime.ExecutionContextID, error) {
	key := worldKey{sess, frame}
	p.mu.Lock()
	id, ok := p.worlds[key]
	p.mu.Unlock()
	if ok {
		return id, nil
	}
	res, err := cdp.Call(ctx, sess, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: engineWorldName})
	if err != nil {
		if p.TabClosed() {
			return 0, err // the tab-gone error says it all
		}
		return 0, p.frameGone(ctx, fmt.Errorf("create the engine's world in the page: %w", err))
	}
	p.mu.Lock()
	if p.worlds == nil {
		p.worlds = map[worldKey]runtime.ExecutionContextID{}
	}
	p.worlds[key] = res.ExecutionContextID
	p.mu.Unlock()
	return res.ExecutionContextID, nil
}

// forgetWorld drops a world context that no longer exists (its document
// navigated away), so that the next call creates it afresh.
func (p *Page) forgetWorld(sess *Session, id runtime.ExecutionContextID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, v := range p.worlds {
		if k.sess == sess && v == id {
			delete(p.worlds, k)
		}
	}
}

// worldGone reports whether err says an execution context no longer
// exists.
func worldGone(err error) bool {
	return err != nil && KindOf(err) == KindContextDestroyed
}

// engineEvaluate runs Runtime.evaluate in the engine's world of the
// current frame. A context from before a navigation is replaced once.
func (p *Page) engineEvaluate(ctx context.Context, params runtime.EvaluateParams) (*runtime.EvaluateResult, *Session, error) {
	for attempt := 0; ; attempt++ {
		sess, id, err := p.engineExec(ctx)
		if err != nil {
			return nil, nil, err
		}
		params.ContextID = id
		res, err := cdp.Call(ctx, sess, runtime.Evaluate, params)
		if err != nil && attempt == 0 && worldGone(err) {
			p.forgetWorld(sess, id)
			continue
		}
		return &res, sess, err
	}
}

// engineEval is Eval in the engine's world: it evaluates expr, awaits a
// returned promise and returns the JSON value (null for undefined).
func (p *Page) engineEval(ctx context.Context, expr string) ([]byte, error) {
	res, _, err := p.engineEvaluate(ctx, runtime.EvaluateParams{
		Expression:    expr,
		ReturnByValue: ptr(true),
		AwaitPromise:  ptr(true),
		UserGesture:   ptr(true),
	})
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, &JSError{Text: exceptionText(res.ExceptionDetails), Source: expr}
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return []byte("null"), nil
	}
	return []byte(res.Result.Value), nil
}

// engineEvaluateBoth sends two evaluations in the engine's world together
// (the second runs after the first, in one round trip) and returns both
// results. A context from before a navigation is replaced once.
func (p *Page) engineEvaluateBoth(ctx context.Context, first, second runtime.EvaluateParams) (r1, r2 runtime.EvaluateResult, err error) {
	rs, errs := p.engineEvaluateAll(ctx, nil, first, second)
	if err = errs[0]; err == nil {
		err = errs[1]
	}
	return rs[0], rs[1], err
}

// engineEvaluateAll sends evaluations in the engine's world together (each
// runs after the one before, in one round trip) and returns their results
// and errors; sent, when given, runs once they are all written, before
// their answers come (what it sends reaches the page after them). A
// context from before a navigation is replaced once.
func (p *Page) engineEvaluateAll(ctx context.Context, sent func(), params ...runtime.EvaluateParams) ([]runtime.EvaluateResult, []error) {
	for attempt := 0; ; attempt++ {
		results := make([]runtime.EvaluateResult, len(params))
		errs := make([]error, len(params))
		sess, id, err := p.engineExec(ctx)
		if err != nil {
			for i := range errs {
				errs[i] = err
			}
			return results, errs
		}
		waits := make([]func(context.Context, any) error, len(params))
		for i := range params {
			params[i].ContextID = id
			waits[i], errs[i] = sess.Send(ctx, runtime.CommandEvaluate, params[i])
		}
		if sent != nil {
			sent()
			sent = nil
		}
		for i, wait := range waits {
			if errs[i] == nil {
				errs[i] = wait(ctx, &results[i])
			}
		}
		if errs[0] != nil && attempt == 0 && worldGone(errs[0]) {
			p.forgetWorld(sess, id)
			continue
		}
		return results, errs
	}
}
