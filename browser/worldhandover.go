package browser

import (
	"context"
	"fmt"
	"strconv"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// Elements cross between the engine's world and the page's by backend
// node id: each element of an array in one world is described (its node
// id) and resolved again in the other world's context. Events would be
// one call fewer, but the page can swap or swallow them, and they cannot
// name an element inside a closed shadow root from outside it.

// arrayItems returns the object ids of an array's items, in order (""
// for an item that is not an object).
func arrayItems(ctx context.Context, sess *Session, array runtime.RemoteObjectID) ([]runtime.RemoteObjectID, error) {
	props, err := cdp.Call(ctx, sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: array, OwnProperties: ptr(true)})
	if err != nil {
		return nil, fmt.Errorf("read the elements to hand over: %w", err)
	}
	var items []runtime.RemoteObjectID
	for _, prop := range props.Result {
		i, err := strconv.Atoi(prop.Name)
		if err != nil || i < 0 || i > 100000 {
			continue
		}
		for len(items) <= i {
			items = append(items, "")
		}
		if prop.Value != nil && prop.Value.Subtype == "node" {
			items[i] = prop.Value.ObjectID
		}
	}
	return items, nil
}

// moveElements resolves elements (object ids in one world of sess's
// frames) in the execution context to (0: the page's default world).
// The calls go out together: two round trips for any number of elements.
// An element that cannot be moved is "".
func moveElements(ctx context.Context, sess *Session, els []runtime.RemoteObjectID, to runtime.ExecutionContextID, group string) []runtime.RemoteObjectID {
	out := make([]runtime.RemoteObjectID, len(els))
	waits := make([]func(context.Context, any) error, len(els))
	for i, el := range els {
		if el != "" {
			waits[i], _ = sess.Send(ctx, dom.CommandDescribeNode, dom.DescribeNodeParams{ObjectID: el})
		}
	}
	nodes := make([]dom.DescribeNodeResult, len(els))
	for i, wait := range waits {
		if wait == nil || wait(ctx, &nodes[i]) != nil || nodes[i].Node == nil {
			waits[i] = nil
			continue
		}
		waits[i], _ = sess.Send(ctx, dom.CommandResolveNode, dom.ResolveNodeParams{BackendNodeID: nodes[i].Node.BackendNodeID, ExecutionContextID: to, ObjectGroup: group})
	}
	for i, wait := range waits {
		var r dom.ResolveNodeResult
		if wait != nil && wait(ctx, &r) == nil && r.Object != nil {
			out[i] = r.Object.ObjectID
		}
	}
	return out
}

// objectArgs makes call arguments of object ids (null for "").
func objectArgs(ids []runtime.RemoteObjectID) []*runtime.CallArgument {
	args := make([]*runtime.CallArgument, len(ids))
	for i, id := range ids {
		if id == "" {
			args[i] = &runtime.CallArgument{Value: []byte("null")}
		} else {
			args[i] = &runtime.CallArgument{ObjectID: id}
		}
	}
	return args
}
