package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/runtime"
)

// The action watch (watch.js) must run in the page's own world: it wraps
// the page's setTimeout, fetch, requestAnimationFrame, XMLHttpRequest's
// send, postMessage and form submit while an action settles, to see the
// work the action set off (an isolated world has its own copies of those,
// which the page never calls). The wrappers are visible to the page only
// while a watch is armed: disarming puts the browser's own functions
// back on window and the prototypes. Only references the page's scripts
// saved during a start-up watch stay the watch's gates, passing through
// to the natives (or to an armed action watch). Seeing the same work
// through CDP instead was measured (watchcdp_bench_test.go): a Debugger
// pause per timer costs milliseconds each; Network events (the domain is
// on for every page) come after the input call returned, so a watch on
// them would have to wait to learn that an action started nothing, and
// they do not say which code started a request. The watch keeps no name:
// its surface is held by a do-nothing listener on window for an event
// type named at random for this process; cdp-skill finds that listener
// through CDP (DOMDebugger.getEventListeners), which the page cannot, and
// calls the surface on the listener's function. A page cannot list,
// reach or replace it, and firing the event runs nothing.

// watchGroup holds the remote objects of the watch's handle, kept for the
// document's life.
const watchGroup = "cdp-skill-watch"

// watchEventType is the event type whose listener holds the watch.
var watchEventType = sync.OnceValue(func() string {
	var b [8]byte
	rand.Read(b[:])
	return "w" + hex.EncodeToString(b[:])
})

// watchInstallJS installs the watch in the page's world and evaluates to
// the listener function that holds its surface (as its s).
func watchInstallJS() string {
	return "(() => { const S = (" + watchBundle().source + ")(); const h = function () {}; h.s = S;" +
		" window.addEventListener(" + jsString(watchEventType()) + ", h); return h; })()"
}

// bootWatchScript arms the watch in a new document before its own scripts.
func bootWatchScript() string { return watchInstallJS() + ".s." + wpWatchArmBoot.name + "();" }

// watchHandle is the listener function holding the watch in one document.
type watchHandle struct {
	sess  *Session
	ctxID runtime.ExecutionContextID
	obj   runtime.RemoteObjectID
}

// watchDoc names the document (execution context of a session) a watch
// handle was found in.
type watchDoc struct {
	sess  *Session
	ctxID runtime.ExecutionContextID
}

// watchHandles are the handles found per document, so that steps
// alternating between frames each find theirs kept.
type watchHandles map[watchDoc]watchHandle

// maxWatchHandles bounds the handles kept: past it (documents come and go
// with navigations) the kept ones are dropped and found again.
const maxWatchHandles = 16

// keep records h, dropping the others when there are too many.
func (m *watchHandles) keep(h watchHandle) {
	if *m == nil || len(*m) >= maxWatchHandles {
		*m = watchHandles{}
	}
	(*m)[watchDoc{h.sess, h.ctxID}] = h
}

// watchCall calls a method of the action watch in the page's own world,
// where it sees the page's timers and requests, installing the watch
// when the document has none. A handle kept from an earlier call is tried
// first; a document that changed since makes the call find it again.
func (p *Page) watchCall(ctx context.Context, out any, ep watchEntry, args ...any) error {
	method := ep.name
	// An empty list is no argument at all (CDP omits an empty value):
	// the function takes a missing one as none.
	data, err := json.Marshal(args)
	if err != nil {
		return fmt.Errorf("watch %s: encode arguments: %w", method, err)
	}
	fn := "function(m, args) { const S = this.s; return S && S.version === " + jsString(watchBundle().version) +
		" ? S[m](...(args || [])) : " + jsString(engineMissing) + "; }"
	for fresh := false; ; fresh = true {
		h, err := p.watchHandleOf(ctx, fresh)
		if err != nil {
			return p.frameGone(ctx, engineError(method, err))
		}
		res, err := cdp.Call(ctx, h.sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: fn,
			ObjectID:            h.obj,
			Arguments:           []*runtime.CallArgument{{Value: []byte(jsString(method))}, {Value: data}},
			ReturnByValue:       ptr(true),
			AwaitPromise:        ptr(true),
			UserGesture:         ptr(true),
		})
		if err == nil && res.ExceptionDetails != nil {
			err = &JSError{Text: exceptionText(res.ExceptionDetails)}
		}
		if err != nil || (res.Result != nil && string(res.Result.Value) == `"`+engineMissing+`"`) {
			if !fresh && ctx.Err() == nil {
				continue
			}
			if err == nil {
				err = documentChanged(method)
			}
			return p.frameGone(ctx, engineError(method, err))
		}
		if out == nil || res.Result == nil || len(res.Result.Value) == 0 {
			return nil
		}
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			return fmt.Errorf("watch %s: decode result: %w", method, err)
		}
		return nil
	}
}

// watchHandleOf returns the watch's handle in the current frame's
// document: the one kept for it unless fresh, else the listener the page's world
// holds (the start-up watch's, or one an earlier call installed), else a
// new install.
func (p *Page) watchHandleOf(ctx context.Context, fresh bool) (watchHandle, error) {
	sess, ctxID := p.exec(ctx)
	p.mu.Lock()
	h, ok := p.watchObjs[watchDoc{sess, ctxID}]
	p.mu.Unlock()
	if !fresh && ok && h.obj != "" {
		return h, nil
	}
	h = watchHandle{sess: sess, ctxID: ctxID}
	// The listeners' handlers come back in the object group of the object
	// asked with.
	win, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "window", ContextID: ctxID, ObjectGroup: watchGroup})
	if err != nil {
		return h, err
	}
	if win.Result != nil && win.Result.ObjectID != "" {
		defer releaseIn(sess, win.Result.ObjectID)
		list, err := cdp.Call(ctx, sess, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{ObjectID: win.Result.ObjectID, Depth: ptr(int64(0))})
		if err != nil {
			return h, err
		}
		for _, l := range list.Listeners {
			if l.Type == watchEventType() && l.Handler != nil && l.Handler.ObjectID != "" {
				h.obj = l.Handler.ObjectID
				break
			}
		}
	}
	if h.obj == "" {
		res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: watchInstallJS(), ContextID: ctxID, ObjectGroup: watchGroup})
		if err == nil && res.ExceptionDetails != nil {
			err = &JSError{Text: exceptionText(res.ExceptionDetails)}
		}
		if err != nil {
			return h, fmt.Errorf("install the action watch: %w", err)
		}
		if res.Result == nil || res.Result.ObjectID == "" || !strings.EqualFold(string(res.Result.Type), "function") {
			return h, fmt.Errorf("install the action watch: the page's world answered %v", res.Result)
		}
		h.obj = res.Result.ObjectID
	}
	p.mu.Lock()
	p.watchObjs.keep(h)
	p.mu.Unlock()
	return h, nil
}
