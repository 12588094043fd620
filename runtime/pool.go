package runtime

import (
	"context"
	"sync"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// Pool is what a long-lived host (the MCP server) keeps between programs:
// the Chrome connections, the attached tab sessions, and how far each tab's
// dialog log was reported. Pass the same Pool in Options to every Run; the
// answers are the same as without one, only faster.
type Pool struct {
	// KeepEmulation keeps a tab's viewport and geolocation from one
	// program to the next (the MCP server: one session, many calls).
	// Without it they end with each program, as for a command that ran on
	// a connection of its own (the resident process).
	KeepEmulation bool
	conns         *browser.Pool
	mu            sync.Mutex
	// reported is, per page, the dialog-log position answers reported up
	// to; dialogs after it (a timer's, between programs) go into the next
	// answer.
	reported map[*browser.Page]int
	// KeepNetworkLog makes the network step list a tab's requests since
	// its last clear, across programs (the MCP server, where an agent's
	// calls are one session); otherwise a program lists only its own.
	KeepNetworkLog bool
}

// NewPool returns an empty pool. Close it when the process ends.
func NewPool() *Pool {
	return &Pool{conns: browser.NewPool(), reported: map[*browser.Page]int{}}
}

// Close closes the kept connections; Chrome and its tabs keep running.
func (p *Pool) Close() { p.conns.Close() }

// Warm connects to the Chrome at ep before the first program (never
// launching one), so that program finds the connection made.
func (p *Pool) Warm(ctx context.Context, ep chrome.Endpoint) error { return p.conns.Warm(ctx, ep) }

// Gone reports whether every Chrome connection the pool made has ended
// (see browser.Pool.Gone).
func (p *Pool) Gone() bool { return p.conns.Gone() }

// dialogMark is where a program starting on pg reports dialogs from.
func (p *Pool) dialogMark(pg *browser.Page) int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reported[pg]
}

// setDialogMark records that dialogs of pg before mark were reported.
func (p *Pool) setDialogMark(pg *browser.Page, mark int) {
	if p == nil || pg == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reported[pg] = mark
	for k := range p.reported {
		if k != pg && !p.conns.Kept(k) {
			delete(p.reported, k) // the tab was closed: let its page go
		}
	}
}
