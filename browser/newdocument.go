package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
)

// WaitNewDocument waits until the tab's top frame has had another count
// of documents than seen (a Documents count taken earlier) and reports
// whether it did: false when ctx ends or the tab closes first. It waits on
// the execution-context events, not a poll.
func (p *Page) WaitNewDocument(ctx context.Context, seen int) bool {
	if p.contexts == nil {
		return false
	}
	return p.contexts.waitDocuments(ctx, cdp.FrameID(p.TargetID), seen)
}
