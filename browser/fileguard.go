package browser

import (
	"context"

	"github.com/cdp-skill/cdp-skill/browser/traffic"
)

// The file guard applies the page's URL policy to every file: load
// Chrome makes in the tab (traffic.Network.EnableGuard); the page turns it
// on when it shows a file: document.

// urlPolicy returns the page's URL policy.
func (p *Page) urlPolicy() URLPolicy {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.urls
}

// GuardFiles turns the file guard on when raw, the URL of a document the
// tab shows or is about to show, is a file: URL. It costs a round trip
// once per page session, and nothing for other URLs.
func (p *Page) GuardFiles(ctx context.Context, raw string) error {
	if !traffic.IsFileURL(raw) {
		return nil
	}
	return p.net.EnableGuard(ctx)
}

// TakeRefusedLoads returns notes about the loads the URL policy refused
// since the last call (a frame or document of a local file outside the
// allowed directories).
func (p *Page) TakeRefusedLoads() []string {
	if p == nil {
		return nil
	}
	return p.net.TakeRefused()
}
