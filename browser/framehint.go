package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// SelectorFrame is a frame below the current one where a CSS selector
// matches (spec §13.3): Frame names its iframe element as the frame step
// takes it (a CSS selector in the parent's document, or the frame's URL
// when the element has no id, name or title to name it by).
type SelectorFrame struct {
	Frame string `json:"frame"`
	URL   string `json:"url"`
	Count int    `json:"count"`
}

// FramesWithSelector lists the frames below the current one in which sel
// matches elements, for the hint of a selector that matched nothing here.
// It never fails: a frame
// that cannot be read is left out.
func (p *Page) FramesWithSelector(ctx context.Context, sel string) []SelectorFrame {
	var out []SelectorFrame
	for _, d := range p.descendantFrames(ctx) {
		fr := p.descendant(ctx, d)
		if fr == nil {
			continue
		}
		var r struct {
			Total int `json:"total"`
		}
		if err := p.engineCall(inFrame(ctx, fr), &r, epQuery, QueryOptions{Selector: sel, CountOnly: true}); err != nil || r.Total == 0 {
			continue
		}
		name := p.iframeSelector(ctx, fr)
		if name == "" {
			name = d.URL
		}
		out = append(out, SelectorFrame{Frame: name, URL: d.URL, Count: r.Total})
	}
	return out
}

// iframeSelector is a CSS selector of f's iframe element in its parent's
// document (by id, name or title), or "".
func (p *Page) iframeSelector(ctx context.Context, f *frameRef) string {
	parentSess, parentCtx := p.sess, runtime.ExecutionContextID(0)
	if f.parent != nil {
		parentSess, parentCtx = f.parent.sess, f.parent.ctxID
	}
	owner, err := cdp.Call(ctx, parentSess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: f.id})
	if err != nil {
		return ""
	}
	obj, err := cdp.Call(ctx, parentSess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: owner.BackendNodeID, ExecutionContextID: parentCtx})
	if err != nil || obj.Object == nil {
		return ""
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), releaseWait)
		defer cancel()
		cdp.Call(rctx, parentSess, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Object.ObjectID})
	}()
	res, err := cdp.Call(ctx, parentSess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: `function() {
			const tag = this.localName, q = (v) => JSON.stringify(v);
			if (this.id) return '#' + CSS.escape(this.id);
			for (const a of ['name', 'title']) { const v = this.getAttribute(a); if (v) return tag + '[' + a + '=' + q(v) + ']'; }
			return ''; }`,
		ObjectID:      obj.Object.ObjectID,
		ReturnByValue: ptr(true),
	})
	if err != nil || res.Result == nil {
		return ""
	}
	var s string
	jsonUnmarshal(res.Result.Value, &s)
	return s
}
