package browser

// Resume prepares a page that stayed attached after an earlier program (the
// MCP server keeps its tab sessions) for the next one, so that it starts as a
// freshly attached page would: in the main frame, answering dialogs by the
// default policy, with the ref counters re-read from the state dir (another
// process may have advanced them meanwhile) and no notes already reported.
// The session's buffers (console, dialogs) are kept: callers mark where
// their program starts.
func (p *Page) Resume() {
	p.parked.Store(false)
	p.mu.Lock()
	p.frame = nil
	p.seqLoaded = false
	p.Warnings = nil
	p.mu.Unlock()
	p.SetDialogPolicy(DialogPolicy{})
}

// Park marks a kept page as held by no program (a long-lived host keeps its
// session between programs): dialogs it answers until the next Resume are
// reported as having opened between commands.
func (p *Page) Park() { p.parked.Store(true) }
