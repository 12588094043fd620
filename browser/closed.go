package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// registerClosedShadowRoots reaches closed shadow roots, which page
// JavaScript cannot: the engine lists custom elements without an open root,
// CDP describes each (pierce) and resolves its closed root, and the engine
// keeps the root for the element. It returns how many roots it registered.
func (p *Page) registerClosedShadowRoots(ctx context.Context) (int, error) {
	res, sess, err := p.engineEvaluate(ctx, runtime.EvaluateParams{
		Expression: epTakeClosedCandidates.js() + "()",
	})
	if err != nil || res.Result == nil || res.Result.ObjectID == "" {
		return 0, err
	}
	defer p.release(ctx, res.Result.ObjectID)
	props, err := cdp.Call(ctx, sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID, OwnProperties: ptr(true)})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, prop := range props.Result {
		if prop.Value == nil || prop.Value.Subtype != "node" || prop.Value.ObjectID == "" {
			continue
		}
		ok, err := p.registerClosedRoot(ctx, prop.Value.ObjectID)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

func (p *Page) registerClosedRoot(ctx context.Context, host runtime.RemoteObjectID) (bool, error) {
	sess, ctxID, err := p.engineExec(ctx)
	if err != nil {
		return false, err
	}
	desc, err := cdp.Call(ctx, sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: host, Depth: ptr(int64(0)), Pierce: ptr(true)})
	if err != nil {
		return false, fmt.Errorf("describe custom element: %w", err)
	}
	for _, sr := range desc.Node.ShadowRoots {
		if sr.ShadowRootType != cdp.ShadowRootTypeClosed {
			continue
		}
		root, err := cdp.Call(ctx, sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: sr.BackendNodeID, ExecutionContextID: ctxID})
		if err != nil {
			return false, fmt.Errorf("resolve closed shadow root: %w", err)
		}
		_, err = cdp.Call(ctx, sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: "function(root) { return " + epRegisterClosedRoot.js() + "(this, root); }",
			ObjectID:            host,
			Arguments:           []*runtime.CallArgument{{ObjectID: root.Object.ObjectID}},
		})
		p.release(ctx, root.Object.ObjectID)
		if err != nil {
			return false, fmt.Errorf("register closed shadow root: %w", err)
		}
		return true, nil
	}
	return false, nil
}
