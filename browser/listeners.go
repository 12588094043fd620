package browser

import (
	"context"
	"fmt"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/runtime"
)

// clickTypes are the listener types that make an element clickable.
var clickTypes = map[string]bool{"click": true, "mousedown": true, "mouseup": true, "pointerdown": true, "pointerup": true, "dblclick": true}

// documentKey names a document by its engine world's context.
type documentKey struct {
	sess  *Session
	world runtime.ExecutionContextID
}

// clickScan is what the scan knows of one document: its document object
// in the page's world (held by CDP only, kept for the document's life) and the listener
// nodes already handed to the engine.
type clickScan struct {
	doc    runtime.RemoteObjectID
	marked map[cdp.BackendNodeID]bool
	// version is the document's change count (domversion.js) the last
	// scan started at; 0 before the first.
	version int64
}

// clickNodeGroup holds the nodes the scan resolves, released after each
// scan.
const clickNodeGroup = "cdp-skill-click-nodes"

// listenersScanned reports whether the current document's click
// listeners were scanned once (the engine then has marks to render).
func (p *Page) listenersScanned(ctx context.Context) bool {
	wsess, world, err := p.engineExec(ctx)
	return err == nil && p.scannedIn(wsess, world)
}

// scanClickListeners hands the engine the elements the page gave a
// click-type listener since the last scan, so that the snapshot gives
// role-less ones a ref, when the DOM changed since that scan (one round
// trip asks the engine). Snapshots and captures do not call it: they fold
// the question into their own call (renderScanned). It reports whether it
// marked any.
func (p *Page) scanClickListeners(ctx context.Context) bool {
	at := p.scanAt(ctx)
	if at == nil {
		return false
	}
	var v int64
	if err := p.engineCall(ctx, &v, epScanNeeded, *at); err != nil {
		// The count cannot be read: scan, and the next call asks again.
		return p.scanListeners(ctx, 0)
	}
	return v != 0 && p.scanListeners(ctx, v)
}

// renderScanned runs render (a snapshot or capture of the current
// document) given the change count the document's last listener scan
// started at, or nil when no scan can be made. When the engine answers
// that the DOM changed since (rescan: the count now, nothing rendered),
// the scan runs and render runs again, told not to check: a page whose
// DOM is unchanged costs no round trip for the scan.
func (p *Page) renderScanned(ctx context.Context, render func(scanAt *int64) (rescan int64, err error)) error {
	rescan, err := render(p.scanAt(ctx))
	if err != nil || rescan == 0 {
		return err
	}
	p.scanListeners(ctx, rescan)
	if rescan, err = render(nil); err == nil && rescan != 0 {
		err = fmt.Errorf("the page engine asked for a listener scan it was not offered")
	}
	return err
}

// scanAt returns the change count (domversion.js) the last listener scan
// of the current document started at (0: never scanned), or nil when the
// document cannot be scanned.
func (p *Page) scanAt(ctx context.Context) *int64 {
	sess, world, err := p.engineExec(ctx)
	if err != nil {
		return nil
	}
	sc := p.clickScanOf(ctx, sess, world)
	if sc == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	v := sc.version
	return &v
}

// scanListeners scans the current document's click listeners, the DOM at
// change count version: one CDP call (DOMDebugger.getEventListeners over
// the whole tree, shadow roots included, asked with the page world's
// document object, which no page script can reach) finds the listener
// nodes; the new ones are resolved in the engine's world and marked there
// (snapshot.js markClicks). Nothing of it lives in the page's own world (a
// page could read and forge it there). A scan, a CDP walk of every
// listener of the page, costs tens of milliseconds on a large page: it
// runs only when the count changed, and a listener added with no change
// to the DOM is found at the next change. It reports whether it marked
// any; errors only cost the marks.
func (p *Page) scanListeners(ctx context.Context, version int64) bool {
	sess, world, err := p.engineExec(ctx)
	if err != nil {
		return false
	}
	sc := p.clickScanOf(ctx, sess, world)
	if sc == nil {
		return false
	}
	list, err := cdp.Call(ctx, sess, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{ObjectID: sc.doc, Depth: ptr(int64(-1)), Pierce: ptr(true)})
	if err != nil {
		// The document's object went (document.open made a new main
		// world): the next scan asks for it again.
		p.mu.Lock()
		delete(p.scanned, documentKey{sess, world})
		p.mu.Unlock()
		return false
	}
	var ids []cdp.BackendNodeID
	p.mu.Lock()
	sc.version = version
	for _, l := range list.Listeners {
		if clickTypes[l.Type] && l.BackendNodeID != 0 && !sc.marked[l.BackendNodeID] {
			sc.marked[l.BackendNodeID] = true
			ids = append(ids, l.BackendNodeID)
		}
	}
	p.mu.Unlock()
	if len(ids) == 0 {
		return false
	}
	if err := p.markClicks(ctx, sess, world, ids); err != nil {
		// Not marked: the next scan tries them again.
		p.mu.Lock()
		sc.version = 0
		for _, id := range ids {
			delete(sc.marked, id)
		}
		p.mu.Unlock()
		return false
	}
	return true
}

// clickScanOf returns the scan record of the document of the engine's
// world in sess, making it (with the document's object) on first use.
func (p *Page) clickScanOf(ctx context.Context, sess *Session, world runtime.ExecutionContextID) *clickScan {
	key := documentKey{sess, world}
	p.mu.Lock()
	sc := p.scanned[key]
	p.mu.Unlock()
	if sc != nil {
		return sc
	}
	// The document's object in the page's own world: asked with an object
	// of the engine's isolated world, DOMDebugger.getEventListeners wraps
	// the page's handler functions in the isolated world and the renderer
	// dies (runtime's TestHiddenTargetSaysWhyAndWhatShowsIt crashed it
	// every run). The object is only held by CDP: the page cannot reach it.
	msess, mainCtx := p.exec(ctx)
	if msess != sess {
		return nil
	}
	// In no object group: DOMDebugger.getEventListeners makes remote
	// objects of every listener's handler in the group of the object it is
	// asked with, a cost per listener on every scan (and objects kept for
	// the document's life).
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "document", ContextID: mainCtx})
	if err != nil || res.Result == nil || res.Result.ObjectID == "" {
		return nil
	}
	sc = &clickScan{doc: res.Result.ObjectID, marked: map[cdp.BackendNodeID]bool{}}
	p.mu.Lock()
	if p.scanned == nil {
		p.scanned = map[documentKey]*clickScan{}
	}
	p.scanned[key] = sc
	p.mu.Unlock()
	return sc
}

// markClicks resolves the nodes ids in the engine's world (the calls sent
// together) and hands them to the engine's markClicks.
func (p *Page) markClicks(ctx context.Context, sess *Session, world runtime.ExecutionContextID, ids []cdp.BackendNodeID) error {
	defer p.releaseGroup(sess, clickNodeGroup)
	objs := make([]runtime.RemoteObjectID, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := cdp.Call(ctx, sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: id, ObjectGroup: clickNodeGroup, ExecutionContextID: world})
			if err == nil && r.Object != nil && r.Object.Subtype == "node" {
				objs[i] = r.Object.ObjectID
			}
		}()
	}
	wg.Wait()
	args := []*runtime.CallArgument{}
	for _, o := range objs {
		if o != "" {
			args = append(args, &runtime.CallArgument{ObjectID: o})
		}
	}
	mark := func() (bool, error) {
		res, err := cdp.Call(ctx, sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: "function(...els) { const E = window." + engineBundle().global + "; return E && E.version === " + jsString(engineBundle().version) + " ? E." + epMarkClicks.name + "(els) : -1; }",
			ExecutionContextID:  world,
			Arguments:           args,
			ReturnByValue:       ptr(true),
		})
		if err != nil {
			return false, err
		}
		return res.Result == nil || string(res.Result.Value) != "-1", nil
	}
	done, err := mark()
	if err != nil || done {
		return err
	}
	// The engine is not installed in this document yet.
	if err := p.installEngine(ctx); err != nil {
		return err
	}
	if done, err = mark(); err == nil && !done {
		err = documentChanged(epMarkClicks.name)
	}
	return err
}

// releaseGroup frees an object group; errors do not matter.
func (p *Page) releaseGroup(sess *Session, group string) {
	ctx, cancel := context.WithTimeout(context.Background(), releaseWait)
	defer cancel()
	cdp.Call(ctx, sess, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
}

// scannedIn reports whether the document of the engine's world in sess was
// scanned once.
func (p *Page) scannedIn(sess *Session, world runtime.ExecutionContextID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.scanned[documentKey{sess, world}] != nil
}
