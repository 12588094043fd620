package browser

import (
	"context"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/runtime"
)

// clickTypes are the listener types that make an element clickable.
var clickTypes = map[string]bool{"click": true, "mousedown": true, "mouseup": true, "pointerdown": true, "pointerup": true, "dblclick": true}

// resolveClicksUpTo is how many listener-bearing nodes the scan resolves
// one by one (a CDP round trip each, sent together); past it, one
// evaluation asks each element in the page (scanClicksScript).
const resolveClicksUpTo = 30

// documentKey names a document by its engine world's context.
type documentKey struct {
	sess  *Session
	world runtime.ExecutionContextID
}

// registryTimeout bounds an evaluation of the registry in the page's
// world, in milliseconds.
const registryTimeout runtime.TimeDelta = 500

// clickScanGroup is the object group the scan's remote objects live in.
const clickScanGroup = "cdp-skill-clicks"

// installClicks (a JavaScript statement list) defines the registry in the
// page's world (where the page adds its listeners): a WeakSet of the
// elements with click-type listeners, kept as window's non-enumerable
// __cdpSkillClicks (its presence says the document was scanned), with a
// list of weak references to iterate it, and a wrapper of
// addEventListener that registers elements given such a listener from now
// on. The snapshot runs in the engine's world and cannot see the set: it
// dispatches clickQueryEvent at window, and the registry answers with a
// clickMarkEvent at each registered element still in the document
// (snapshot.js clickMarks).
const installClicks = `let set = window.__cdpSkillClicks, mark;
  if (!set) {
    set = new WeakSet();
    const list = [];
    mark = (el) => { if (!set.has(el)) { set.add(el); list.push(new WeakRef(el)); } };
    Object.defineProperty(window, '__cdpSkillClicks', {value: set, configurable: true, enumerable: false});
    Object.defineProperty(window, '__cdpSkillClickMark', {value: mark, configurable: true, enumerable: false});
    window.addEventListener('` + clickQueryEvent + `', () => {
      let kept = 0;
      for (const ref of list) {
        const el = ref.deref();
        if (!el) continue;
        list[kept++] = ref;
        if (el.isConnected) el.dispatchEvent(new Event('` + clickMarkEvent + `', {composed: true}));
      }
      list.length = kept;
    }, true);
    const types = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'dblclick']);
    const proto = EventTarget.prototype, add = proto.addEventListener;
    const wrapped = {addEventListener(type, fn, opts) {
      if (types.has(type) && this instanceof Element) mark(this);
      return add.call(this, type, fn, opts);
    }}.addEventListener;
    Object.defineProperty(proto, 'addEventListener', {value: wrapped, configurable: true, writable: true, enumerable: false});
    for (const name of ['onclick', 'onmousedown', 'onmouseup', 'onpointerdown', 'onpointerup', 'ondblclick']) {
      const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name);
      if (!d || !d.set || !d.configurable) continue;
      Object.defineProperty(HTMLElement.prototype, name, {get: d.get, set: {[name](v) { if (v) mark(this); return d.set.call(this, v); }}[name], configurable: true, enumerable: d.enumerable});
    }
  }
  mark = window.__cdpSkillClickMark;`

// clickQueryEvent and clickMarkEvent carry the registry across worlds
// (the names are also in snapshot.js).
const (
	clickQueryEvent = "__cdpSkillClickQuery"
	clickMarkEvent  = "__cdpSkillClickMark"
)

// markClickScript installs the registry and adds the elements passed.
const markClickScript = `function(...els) {
  ` + installClicks + `
  for (const el of els) if (el && el.nodeType === 1 && el !== document.body && el !== document.documentElement) mark(el);
  return els.length;
}`

// scanClicksScript installs the registry and asks each element that is
// not a native control (shadow roots included) for its listeners, through
// the DevTools command-line API's getEventListeners (evaluated with
// includeCommandLineAPI). Listeners on html and body are delegation and
// mark nothing.
const scanClicksScript = `(() => {
  ` + installClicks + `
  if (typeof getEventListeners !== 'function') return -1;
  const skip = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'HTML', 'BODY', 'HEAD', 'SCRIPT', 'STYLE', 'LINK', 'META', 'TITLE', 'BR', 'IFRAME', 'path']);
  let n = 0;
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (skip.has(el.tagName)) continue;
      const l = getEventListeners(el);
      if (l.click || l.mousedown || l.mouseup || l.pointerdown || l.pointerup || l.dblclick) { mark(el); n++; }
    }
  };
  visit(document);
  return n;
})()`

// scanClickListeners marks, once per document, the elements the page gave
// a click-type listener, so that the snapshot gives role-less ones a ref;
// listeners added later are marked as they are added. One CDP call
// (DOMDebugger.getEventListeners over the whole tree) counts them: with
// none, the registry is installed at once; with a few, their nodes are
// resolved and marked; with many, one evaluation asks each element (that
// costs in proportion to the page's size, resolving each node to the
// number of listeners). A document already scanned costs one evaluation.
// Errors only cost the marks.
// listenersScanned reports whether the current document's click
// listeners were scanned (scanClickListeners then costs nothing).
func (p *Page) listenersScanned(ctx context.Context) bool {
	wsess, world, err := p.engineExec(ctx)
	return err == nil && p.scannedIn(wsess, world)
}

// scannedIn reports whether the document of the engine's world in sess was
// scanned.
func (p *Page) scannedIn(sess *Session, world runtime.ExecutionContextID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.scanned[documentKey{sess, world}]
}

func (p *Page) scanClickListeners(ctx context.Context) {
	// The engine's world is made once per document: its context names
	// the document, so a document scanned already costs nothing.
	wsess, world, err := p.engineExec(ctx)
	if err != nil {
		return
	}
	key := documentKey{wsess, world}
	p.mu.Lock()
	done := p.scanned[key]
	p.mu.Unlock()
	if done {
		return
	}
	defer func() {
		p.mu.Lock()
		if p.scanned == nil {
			p.scanned = map[documentKey]bool{}
		}
		p.scanned[key] = true
		p.mu.Unlock()
	}()
	sess, ctxID := p.exec(ctx)
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{
		Expression:  "window.__cdpSkillClicks ? null : document",
		ContextID:   ctxID,
		ObjectGroup: clickScanGroup,
		// The page's world: a getter that never returns must not hold the
		// snapshot (V8 stops it).
		Timeout: registryTimeout,
	})
	if err != nil || res.Result == nil || res.Result.ObjectID == "" {
		return
	}
	defer p.releaseGroup(sess, clickScanGroup)
	doc := res.Result.ObjectID
	list, err := cdp.Call(ctx, sess, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{ObjectID: doc, Depth: ptr(int64(-1)), Pierce: ptr(true)})
	if err != nil {
		return
	}
	seen := map[cdp.BackendNodeID]bool{}
	var ids []cdp.BackendNodeID
	for _, l := range list.Listeners {
		if clickTypes[l.Type] && l.BackendNodeID != 0 && !seen[l.BackendNodeID] {
			seen[l.BackendNodeID] = true
			ids = append(ids, l.BackendNodeID)
		}
	}
	if len(ids) > resolveClicksUpTo {
		cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: scanClicksScript, ContextID: ctxID, IncludeCommandLineAPI: ptr(true), Silent: ptr(true), Timeout: registryTimeout * 4})
		return
	}
	objs := make([]runtime.RemoteObjectID, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := cdp.Call(ctx, sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: id, ObjectGroup: clickScanGroup, ExecutionContextID: ctxID})
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
	cdp.Call(ctx, sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: markClickScript,
		ObjectID:            doc,
		Arguments:           args,
	})
}

// releaseGroup frees an object group; errors do not matter.
func (p *Page) releaseGroup(sess *Session, group string) {
	ctx, cancel := context.WithTimeout(context.Background(), releaseWait)
	defer cancel()
	cdp.Call(ctx, sess, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
}
