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

// maxClickScan bounds how many listener-bearing elements one scan marks.
const maxClickScan = 400

// clickScanGroup is the object group the scan's remote objects live in.
const clickScanGroup = "cdp-skill-clicks"

// markClickScript registers the elements passed as clickable, and from now
// on every element that gets a click-type listener: the snapshot gives
// such role-less elements a ref (snapshot.js clickMarked). It runs once per
// document; the flag is the WeakSet itself.
const markClickScript = `function(...els) {
  let set = window.__cdpSkillClicks;
  if (!set) {
    set = new WeakSet();
    Object.defineProperty(window, '__cdpSkillClicks', {value: set, configurable: true, enumerable: false});
    const types = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'dblclick']);
    const proto = EventTarget.prototype, add = proto.addEventListener;
    const wrapped = {addEventListener(type, fn, opts) {
      if (types.has(type) && this instanceof Element) set.add(this);
      return add.call(this, type, fn, opts);
    }}.addEventListener;
    Object.defineProperty(proto, 'addEventListener', {value: wrapped, configurable: true, writable: true, enumerable: false});
  }
  for (const el of els) if (el && el.nodeType === 1) set.add(el);
  return els.length;
}`

// scanClickListeners finds, once per document, the elements the page gave
// a click-type listener (DOMDebugger.getEventListeners over the whole
// tree, one CDP call) and marks them for the snapshot; listeners added
// later are marked as they are added. Listeners on html, body and the
// document are event delegation, not a clickable element, and are skipped.
// Errors only cost the marks.
func (p *Page) scanClickListeners(ctx context.Context) {
	sess, ctxID := p.exec()
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{
		Expression:  "window.__cdpSkillClicks ? null : document",
		ContextID:   ctxID,
		ObjectGroup: clickScanGroup,
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
		if !clickTypes[l.Type] || l.BackendNodeID == 0 || seen[l.BackendNodeID] || len(ids) >= maxClickScan {
			continue
		}
		seen[l.BackendNodeID] = true
		ids = append(ids, l.BackendNodeID)
	}
	objs := make([]runtime.RemoteObjectID, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := cdp.Call(ctx, sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: id, ObjectGroup: clickScanGroup, ExecutionContextID: ctxID})
			if err == nil && r.Object != nil && r.Object.Subtype == "node" && r.Object.ClassName != "HTMLBodyElement" && r.Object.ClassName != "HTMLHtmlElement" && r.Object.ClassName != "HTMLDocument" {
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
