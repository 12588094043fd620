package browser

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

// Top makes later actions run in the top document again: the frame they
// ran in went away with the document that held it.
func (fs *Frames) Top() {
	p := fs.p
	p.mu.Lock()
	p.frame, p.home = nil, nil
	p.mu.Unlock()
}

// Gone reports whether the frame actions run in went away with its page's
// document (the top document changed since the frame was switched to: a
// goto, a link that left the page).
func (fs *Frames) Gone() bool {
	p := fs.p
	p.mu.Lock()
	f := p.frame
	p.mu.Unlock()
	return f != nil && f.topDocuments != 0 && p.Documents() != f.topDocuments
}
