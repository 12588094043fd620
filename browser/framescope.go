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

// Enter makes the steps' actions run in sel (nil: the top document) and
// returns the func that ends the step, leaving the page in the top
// document. The runtime calls it around every step with its command's
// selection; a sel of another page counts as the top document. A frame
// that loaded another document since it was selected is entered in the
// document it shows now.
func (fs *Frames) Enter(ctx context.Context, sel *Frame) (leave func()) {
	p := fs.p
	var ref *frameRef
	if sel != nil && sel.p == p {
		ref = p.now(ctx, sel.ref)
	}
	p.mu.Lock()
	prevFrame, prevHome := p.frame, p.home
	p.frame, p.home = ref, ref
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.frame, p.home = prevFrame, prevHome
		p.mu.Unlock()
	}
}

// Scope marks the frame the page is in now as the step's home and
// returns a func that goes back to it: a step that acted in another frame
// (on a ref taken there, or a text found there) leaves the next step where
// the command was. The runtime calls it around every step but frame.
func (fs *Frames) Scope() func() {
	p := fs.p
	p.mu.Lock()
	home, prevHome := p.frame, p.home
	p.home = home
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.frame, p.home = home, prevHome
		p.mu.Unlock()
	}
}

// actedFrame names the frame a step acts in when it is not the step's home
// frame: its URL, or "top" for the top document; "" when it is home.
func (p *Page) actedFrame() string {
	p.mu.Lock()
	f, home := p.frame, p.home
	p.mu.Unlock()
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

// Top makes the rest of the running step act in the top document: the
// frame it ran in went away with the document that held it.
func (fs *Frames) Top() {
	p := fs.p
	p.mu.Lock()
	p.frame, p.home = nil, nil
	p.mu.Unlock()
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
