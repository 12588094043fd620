package browser

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
)

// frameRef is the frame actions run in when it is not the main frame.
type frameRef struct {
	id cdp.FrameID
	// page is the page whose frame it is.
	page *Page
	// sess runs the frame's JavaScript: the page's session, or the session
	// of an out-of-process iframe.
	sess  *Session
	ctxID runtime.ExecutionContextID
	// parent is the frame that holds the iframe element (nil: main).
	parent *frameRef
	url    string
	oopif  bool
	// topDocuments is the top document's count (Page.Documents) when the
	// frame was switched to: another one means the frame went with its
	// page's document.
	topDocuments int
}

// oopifTracker attaches to out-of-process iframes (cross-site frames live
// in their own renderer and CDP target) and keeps their sessions.
type oopifTracker struct {
	mu       sync.Mutex
	sessions map[cdp.FrameID]*Session
	// sessionIDs name each frame's session, to forget it on detach.
	sessionIDs map[cdp.FrameID]target.SessionID
	parents    map[cdp.FrameID]cdp.FrameID
	order      []cdp.FrameID
	// contexts follows the frames each out-of-process renderer hosts
	// (a cross-site frame's own same-site children).
	contexts map[cdp.FrameID]*contextTracker
	// attaching counts the frames whose own auto-attach (for the frames
	// inside them) has not been answered yet.
	attaching int
}

// attachSettleMax bounds attachFrames' wait for the frames inside
// out-of-process frames; attachQuiet is how long no attach event must
// come after the last answer.
const (
	attachSettleMax = time.Second
	attachQuiet     = 20 * time.Millisecond
)

// attachFrames turns on auto-attach for the page's iframe targets, once.
func (p *Page) attachFrames(ctx context.Context) (*oopifTracker, error) {
	p.mu.Lock()
	t := p.oopifs
	p.mu.Unlock()
	if t != nil {
		return t, nil
	}
	t = &oopifTracker{sessions: map[cdp.FrameID]*Session{}, sessionIDs: map[cdp.FrameID]target.SessionID{}, parents: map[cdp.FrameID]cdp.FrameID{}, contexts: map[cdp.FrameID]*contextTracker{}}
	ready := make(chan struct{}, 64)
	if err := t.autoAttach(ctx, p, p.sess, ready); err != nil {
		return nil, err
	}
	// Attach events for existing iframes arrive right after the answer;
	// those of the frames inside them once each of those is attached.
	select {
	case <-ready:
		t.settle(ready)
	case <-time.After(50 * time.Millisecond):
	}
	p.mu.Lock()
	p.oopifs = t
	p.mu.Unlock()
	return t, nil
}

// autoAttach attaches to the iframe targets under s, and (recursively) to
// those under each of them: a cross-site frame can hold another.
func (t *oopifTracker) autoAttach(ctx context.Context, p *Page, s *Session, ready chan struct{}) error {
	// The subscriptions, on the page's session and on every frame's, end
	// with the page (Close), not with the connection.
	events, stopEvents := s.Subscribe(target.AttachedToTarget.Method)
	p.onClose(stopEvents)
	go func() {
		for raw := range events {
			var ev target.EventAttachedToTarget
			if decode(raw, &ev) != nil || ev.TargetInfo == nil || ev.TargetInfo.Type != "iframe" {
				continue
			}
			child := p.Browser.conn.Session(ev.SessionID)
			id := cdp.FrameID(ev.TargetInfo.TargetID)
			ct := trackContexts(child)
			p.onClose(ct.stop)
			t.mu.Lock()
			if _, seen := t.sessions[id]; !seen {
				t.order = append(t.order, id)
			}
			t.sessions[id] = child
			t.sessionIDs[id] = ev.SessionID
			t.parents[id] = ev.TargetInfo.ParentFrameID
			t.contexts[id] = ct
			t.attaching++
			t.mu.Unlock()
			go func() {
				cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				cdp.Call(cctx, child, runtime.Enable, cdp.Empty{})
				followFrameLoads(cctx, child)
				t.autoAttach(cctx, p, child, ready)
				t.mu.Lock()
				t.attaching--
				t.mu.Unlock()
				select {
				case ready <- struct{}{}:
				default:
				}
			}()
			select {
			case ready <- struct{}{}:
			default:
			}
		}
	}()
	detached, stopDetached := s.Subscribe(target.DetachedFromTarget.Method)
	p.onClose(stopDetached)
	go func() {
		// A removed (or navigated away) out-of-process frame's session is
		// gone: forget it, so the frame is reported gone, not its session.
		for raw := range detached {
			var ev target.EventDetachedFromTarget
			if decode(raw, &ev) != nil {
				continue
			}
			t.forget(ev.SessionID)
		}
	}()
	if _, err := cdp.Call(ctx, s, target.SetAutoAttach, target.SetAutoAttachParams{AutoAttach: true, Flatten: ptr(true)}); err != nil {
		return fmt.Errorf("attach iframes: %w", err)
	}
	return nil
}

// settle waits, at most attachSettleMax, until every attached frame's
// own auto-attach was answered and no attach event came for attachQuiet:
// a frame of the top site inside a cross-site frame is attached through
// that frame's session, after it.
func (t *oopifTracker) settle(ready chan struct{}) {
	deadline := time.After(attachSettleMax)
	for {
		t.mu.Lock()
		busy := t.attaching > 0
		t.mu.Unlock()
		wait := attachQuiet
		if busy {
			wait = attachSettleMax
		}
		select {
		case <-ready:
		case <-time.After(wait):
			if !busy {
				return
			}
		case <-deadline:
			return
		}
	}
}

// forget drops the frame whose session detached.
func (t *oopifTracker) forget(sid target.SessionID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, s := range t.sessionIDs {
		if s != sid {
			continue
		}
		delete(t.sessions, id)
		delete(t.sessionIDs, id)
		delete(t.contexts, id)
		delete(t.parents, id)
		for i, o := range t.order {
			if o == id {
				t.order = append(t.order[:i:i], t.order[i+1:]...)
				break
			}
		}
	}
}

// all returns the attached frames in attach order with their parents.
func (t *oopifTracker) all() ([]cdp.FrameID, map[cdp.FrameID]cdp.FrameID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	parents := make(map[cdp.FrameID]cdp.FrameID, len(t.parents))
	for k, v := range t.parents {
		parents[k] = v
	}
	return append([]cdp.FrameID(nil), t.order...), parents
}

// inRenderer finds the out-of-process session whose renderer hosts frame
// (as a child of its own frame) and the frame's context there.
func (t *oopifTracker) inRenderer(frame cdp.FrameID) (*Session, runtime.ExecutionContextID, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, ct := range t.contexts {
		if ctxID, ok := ct.context(frame); ok {
			return t.sessions[id], ctxID, true
		}
	}
	return nil, 0, false
}

// documentsOf counts the documents frame has had in the out-of-process
// renderers.
func (t *oopifTracker) documentsOf(frame cdp.FrameID) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, ct := range t.contexts {
		n += ct.documentsOf(frame)
	}
	return n
}

func (t *oopifTracker) session(id cdp.FrameID) *Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sessions[id]
}

// FrameInfo describes one frame for frame listings (spec §13.1).
type FrameInfo struct {
	FrameID     string `json:"frameId"`
	URL         string `json:"url"`
	Name        string `json:"name,omitempty"`
	ParentID    string `json:"parentId,omitempty"`
	Depth       int    `json:"depth"`
	CrossOrigin bool   `json:"crossOrigin,omitempty"`
	// OutOfProcess marks a frame in another renderer (cross-site).
	OutOfProcess bool `json:"outOfProcess,omitempty"`
}

// Frames are the frames of a tab: the list of them, the one actions run
// in, and moving between them. The frame state itself is the Page's (the
// engine's worlds are kept per frame). Reach it by Page.Frames.
type Frames struct {
	p *Page
}

// FrameList is the answer of a frame listing.
type FrameList struct {
	MainFrameID    string      `json:"mainFrameId"`
	CurrentFrameID string      `json:"currentFrameId"`
	Frames         []FrameInfo `json:"frames"`
}

// List lists every frame of the page, out-of-process ones included, in
// tree order.
func (fs *Frames) List(ctx context.Context) (*FrameList, error) {
	p := fs.p
	oop, err := p.attachFrames(ctx)
	if err != nil {
		return nil, err
	}
	// Each renderer knows its own part of the tree: the page's, and one per
	// out-of-process frame. Stitch them together by frame id.
	children := map[cdp.FrameID][]*cdp.Frame{}
	var root *cdp.Frame
	add := func(s *Session) {
		tree, err := cdp.Call(ctx, s, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return
		}
		var walk func(ft *page.FrameTree)
		walk = func(ft *page.FrameTree) {
			for _, c := range ft.ChildFrames {
				children[ft.Frame.ID] = append(children[ft.Frame.ID], c.Frame)
				walk(c)
			}
		}
		walk(tree.FrameTree)
		if root == nil {
			root = tree.FrameTree.Frame
		} else {
			f := tree.FrameTree.Frame
			_, parents := oop.all()
			children[parents[f.ID]] = append(children[parents[f.ID]], f)
		}
	}
	add(p.sess)
	if root == nil {
		return nil, fmt.Errorf("frame tree unavailable")
	}
	ids, _ := oop.all()
	for _, id := range ids {
		if s := oop.session(id); s != nil {
			add(s)
		}
	}
	list := &FrameList{MainFrameID: string(root.ID), CurrentFrameID: string(root.ID)}
	if f := p.frameIn(ctx); f != nil {
		list.CurrentFrameID = string(f.id)
	}
	var walk func(f *cdp.Frame, depth int)
	walk = func(f *cdp.Frame, depth int) {
		info := FrameInfo{FrameID: string(f.ID), URL: f.URL + f.URLFragment, Name: f.Name, ParentID: string(f.ParentID), Depth: depth}
		info.CrossOrigin = depth > 0 && f.SecurityOrigin != root.SecurityOrigin
		info.OutOfProcess = depth > 0 && oop.session(f.ID) != nil
		list.Frames = append(list.Frames, info)
		for _, c := range children[f.ID] {
			if c.ParentID == "" {
				c.ParentID = f.ID
			}
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return list, nil
}

// childFrame is a child frame of the current frame, in document order.
type childFrame struct {
	ID   cdp.FrameID
	Name string
}

// childFrames lists the current frame's iframes in document order, with
// the frame each one holds (out-of-process ones included).
func (p *Page) childFrames(ctx context.Context) ([]childFrame, error) {
	obj, err := p.engineObject(ctx, epFrameOwners)
	if err != nil || obj == nil || obj.ObjectID == "" {
		return nil, err
	}
	defer p.release(ctx, obj.ObjectID)
	sess, _ := p.exec(ctx)
	props, err := cdp.Call(ctx, sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: obj.ObjectID, OwnProperties: ptr(true)})
	if err != nil {
		return nil, err
	}
	var out []childFrame
	for _, prop := range props.Result {
		if prop.Value == nil || prop.Value.Subtype != "node" {
			continue
		}
		d, err := cdp.Call(ctx, sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: prop.Value.ObjectID})
		if err != nil || d.Node.FrameID == "" {
			continue
		}
		name := ""
		for i := 0; i+1 < len(d.Node.Attributes); i += 2 {
			if d.Node.Attributes[i] == "name" {
				name = d.Node.Attributes[i+1]
			}
		}
		out = append(out, childFrame{ID: d.Node.FrameID, Name: name})
	}
	return out, nil
}

// frameRefFor finds where a frame's JavaScript runs: a context of the
// page's renderer, or an out-of-process iframe's own session.
func (p *Page) frameRefFor(ctx context.Context, id cdp.FrameID) (*frameRef, error) {
	return p.frameRefWait(ctx, id, 2*time.Second)
}

// frameProbeWait is how long a snapshot or a ref waits for a frame's
// context to appear (a frame still loading).
const frameProbeWait = 1500 * time.Millisecond

// frameRefWait is frameRefFor waiting at most wait for the context.
func (p *Page) frameRefWait(ctx context.Context, id cdp.FrameID, wait time.Duration) (*frameRef, error) {
	deadline := time.Now().Add(wait)
	for {
		if ctxID, ok := p.contexts.context(id); ok {
			return &frameRef{page: p, id: id, sess: p.sess, ctxID: ctxID}, nil
		}
		oop, err := p.attachFrames(ctx)
		if err != nil {
			return nil, err
		}
		if s := oop.session(id); s != nil {
			return &frameRef{page: p, id: id, sess: s, oopif: true}, nil
		}
		if s, ctxID, ok := oop.inRenderer(id); ok {
			return &frameRef{page: p, id: id, sess: s, ctxID: ctxID, oopif: true}, nil
		}
		if time.Now().After(deadline) {
			return nil, Errorf(KindContextDestroyed, "frame %s has no JavaScript context (it may still be loading or was removed)", id)
		}
		if err := Sleep(ctx, 50*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

func (p *Page) frameURL(ctx context.Context) (string, error) {
	var u string
	err := p.CallInto(ctx, &u, `() => location.href`)
	return u, err
}

// iframeOffset measures a frame's iframe element in its parent frame.
func (p *Page) iframeOffset(ctx context.Context, f *frameRef) (Point, error) {
	parentSess, parentCtx := p.sess, runtime.ExecutionContextID(0)
	if f.parent != nil {
		parentSess, parentCtx = f.parent.sess, f.parent.ctxID
	}
	owner, err := cdp.Call(ctx, parentSess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: f.id})
	if err != nil {
		return Point{}, frameGoneError(f, "find its iframe element", err)
	}
	obj, err := cdp.Call(ctx, parentSess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: owner.BackendNodeID, ExecutionContextID: parentCtx})
	if err != nil {
		return Point{}, frameGoneError(f, "reach its iframe element", err)
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), releaseWait)
		defer cancel()
		cdp.Call(rctx, parentSess, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Object.ObjectID})
	}()
	res, err := cdp.Call(ctx, parentSess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: `function() { const r = this.getBoundingClientRect(); const s = getComputedStyle(this);
			return {x: r.left + this.clientLeft + parseFloat(s.paddingLeft), y: r.top + this.clientTop + parseFloat(s.paddingTop)}; }`,
		ObjectID:      obj.Object.ObjectID,
		ReturnByValue: ptr(true),
	})
	if err != nil {
		return Point{}, frameGoneError(f, "measure its iframe element", err)
	}
	var pt Point
	if res.Result != nil {
		jsonUnmarshal(res.Result.Value, &pt)
	}
	return pt, nil
}

// InChild reports whether the step of ctx acts in a child frame.
func (fs *Frames) InChild(ctx context.Context) bool {
	return fs.p.frameIn(ctx) != nil
}
