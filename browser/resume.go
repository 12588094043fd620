package browser

import "context"

// Resume prepares a page that stayed attached after an earlier program (the
// MCP server keeps its tab sessions) for the next one, so that it starts as a
// freshly attached page would: in the main frame, answering dialogs by the
// default policy, with the ref counters re-read from the state dir (another
// process may have advanced them meanwhile) and no notes already reported.
// The session's buffers (console, dialogs) are kept: callers mark where
// their program starts.
func (p *Page) Resume() {
	p.parked.Store(false)
	p.dlg.resumed()
	p.mu.Lock()
	p.ahead = nil
	p.frameLogs = nil
	p.seqLoaded = false
	p.Warnings = nil
	p.mu.Unlock()
	p.Dialogs().SetPolicy(DialogPolicy{})
	// Dialogs the keeper answered while the page was parked.
	if kept := takeKeptDialogs(p.TargetID); len(kept) > 0 {
		p.dlg.mu.Lock()
		p.dlg.seen = append(p.dlg.seen, kept...)
		p.dlg.mu.Unlock()
	}
}

// Park hands a kept page back to its host when a program ends (a
// long-lived host keeps its session between programs). What lasts only as
// long as a command (spec: viewport and geolocation) is undone here, as
// detaching undoes it for a command that ran on its own connection; and
// until the next Resume the page leaves dialogs to the dialog keeper (see
// Dialogs.answer), so they are reported once, by whichever command comes
// next.
//
// With keepEmulation (the MCP server's sessions, where a viewport set by
// one call lasts for the next) the emulations stay.
func (p *Page) Park(ctx context.Context, keepEmulation bool) {
	p.mu.Lock()
	viewport, geo := p.overrides.viewport, p.overrides.geolocation
	if !keepEmulation {
		p.overrides = commandOverrides{}
	}
	p.mu.Unlock()
	if viewport && !keepEmulation {
		p.Emulation().ResetViewport(ctx)
	}
	if geo && !keepEmulation {
		p.Emulation().ClearGeolocation(ctx)
	}
	p.parked.Store(true)
}

// commandOverrides are the emulations set on a page that last until its
// command ends.
type commandOverrides struct {
	viewport, geolocation bool
}

// noteOverride records that a command set the viewport or geolocation.
func (p *Page) noteOverride(set func(*commandOverrides)) {
	p.mu.Lock()
	set(&p.overrides)
	p.mu.Unlock()
}
