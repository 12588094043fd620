package builtins

import (
	"context"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// Pool keeps Chrome connections and attached tabs beyond one program, for a
// process that runs many (the MCP server). An Env with a Pool takes its
// connections and pages from it and leaves them open when it closes; without
// one, each program connects and attaches on its own.
type Pool interface {
	// Browser returns the connection to the Chrome at ep, connecting with
	// opts (and launching a local Chrome) when there is none or it went
	// away.
	Browser(ctx context.Context, ep chrome.Endpoint, opts browser.ConnectOptions) (*browser.Browser, error)
	// Attach returns the page of target id on b: the kept session, resumed
	// for a new program, or a new one. The caller holds the tab's lock.
	// ahead, when not nil, is called with a kept page as its check goes
	// out, before its answer: what it sends goes with the check.
	Attach(ctx context.Context, b *browser.Browser, id target.ID, ahead func(*browser.Page)) (*browser.Page, error)
}

// attachPage attaches target id on b, through the pool when there is one.
func (e *Env) attachPage(ctx context.Context, b *browser.Browser, id target.ID) (*browser.Page, error) {
	if e.Pool != nil {
		return e.Pool.Attach(ctx, b, id, e.AheadOfAttach)
	}
	return b.Attach(ctx, id)
}
