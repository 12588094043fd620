package browser

import "context"

// Frame is a frame of a tab that a frame step selected: a value the
// runtime holds for the rest of its command and hands to the page at every
// step (Frames.Enter). A nil *Frame is the top document. The page itself
// keeps no frame between steps, so every command starts in the top
// document (spec §19.12), however it runs (its own process, the resident
// one, an MCP session).
type Frame struct {
	p   *Page
	ref *frameRef
}

// Of reports whether f is a frame of page p (nil, the top document, is
// every page's).
func (f *Frame) Of(p *Page) bool { return f == nil || f.p == p }

// Info describes the frame: its id and URL when selected (nil for the top
// document).
func (f *Frame) Info() *FrameInfo {
	if f == nil {
		return nil
	}
	return &FrameInfo{FrameID: string(f.ref.id), URL: f.ref.url, OutOfProcess: f.ref.oopif, Depth: f.ref.depth()}
}

// Gone reports whether the frame went away with its page's document (the
// top document changed since the frame was selected: a goto, a link that
// left the page).
func (f *Frame) Gone() bool {
	return f != nil && f.ref.topDocuments != 0 && f.p.Documents() != f.ref.topDocuments
}

// depth is the frame's nesting level: 1 for a child of the top document.
func (f *frameRef) depth() int {
	n := 0
	for ; f != nil; f = f.parent {
		n++
	}
	return n
}

// Now is sel as its frame is now (nil: the top document; a sel of another
// page counts as the top document): a frame that loaded another document
// since it was selected is entered in the document it shows now, and one
// that moved renderer in its new session. The runtime calls it as every
// step starts, with its command's selection, and runs the step in the
// result (WithFrame).
func (fs *Frames) Now(ctx context.Context, sel *Frame) *Frame {
	if sel == nil || sel.p != fs.p {
		return nil
	}
	return &Frame{p: fs.p, ref: fs.p.now(ctx, sel.ref)}
}

// WithFrame returns the context a step runs in: its actions run in sel
// (nil: the top document). The page itself holds no frame, so every
// command starts in the top document and two steps on one page, each
// with its own context, act in their own frames; a lookup that finds the
// step's target in another frame moves that step only.
func WithFrame(ctx context.Context, sel *Frame) context.Context {
	if sel == nil {
		return inFrame(ctx, nil)
	}
	return inFrame(ctx, sel.ref)
}

// Enter returns the context a step runs in sel (see Now and WithFrame).
func (fs *Frames) Enter(ctx context.Context, sel *Frame) context.Context {
	return WithFrame(ctx, fs.Now(ctx, sel))
}

// actedFrame names the frame the step of ctx acts in when it is not the
// step's home frame (its target was in another one): its URL, or "top"
// for the top document; "" when it is home.
func actedFrame(ctx context.Context) string {
	s := stepFrameOf(ctx)
	if s == nil {
		return ""
	}
	s.mu.Lock()
	f, home := s.frame, s.home
	s.mu.Unlock()
	if f == home {
		return ""
	}
	if f == nil {
		return "top"
	}
	if f.url != "" {
		return f.url
	}
	return string(f.id)
}

// now is f as its frame is now: a frame that loaded another document runs
// its JavaScript in the new document's context, and a frame that moved to
// another renderer (a same-site frame that loaded a cross-site page, or
// back) in that renderer's session. A frame with no document now waits
// for one a moment (it is loading); one that never comes (the frame was
// removed) stays as it was, and its calls say so.
func (p *Page) now(ctx context.Context, f *frameRef) *frameRef {
	if f == nil {
		return nil
	}
	g := *f
	g.parent = p.now(ctx, f.parent)
	if r, err := p.frameRefWait(ctx, f.id, frameProbeWait); err == nil {
		g.sess, g.ctxID, g.oopif = r.sess, r.ctxID, r.oopif
	}
	return &g
}
