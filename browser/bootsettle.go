package browser

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// bootWatch is the start-up watch of one navigation the agent asked for
// (goto, openTab, reload, back, forward): the in-page watch (watch.js
// watchArmBoot) armed as the first script of the new top document, and
// settled once the document has loaded, so the answer shows what the page
// builds right after its load — a consent dialog after its configuration
// arrives, a newsletter modal on a short timer — the way a click's answer
// shows what the click set off.
type bootWatch struct {
	p  *Page
	id page.ScriptIdentifier
}

// armBoot registers the start-up watch for the next documents of the
// page, when the navigation waits for its load (commit and
// domcontentloaded ask not to wait for more). It returns nil when there is
// nothing to settle; a nil watch does nothing.
func (p *Page) armBoot(ctx context.Context, wait WaitUntil) *bootWatch {
	if wait != WaitLoad && wait != WaitNetworkIdle {
		return nil
	}
	res, err := cdp.Call(ctx, p.sess, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: bootWatchScript()})
	if err != nil || res.Identifier == "" {
		return nil // the navigation goes on without the start-up wait
	}
	return &bootWatch{p: p, id: res.Identifier}
}

// remove unregisters the script (later documents, such as the page's own
// navigations, are not watched).
func (b *bootWatch) remove(ctx context.Context) {
	if b == nil {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupBudget)
	defer cancel()
	cdp.Call(rctx, b.p.sess, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: b.id})
}

// settle waits, within settleBound and the step's time, for the start-up
// work the watch counted: its short timers, its requests and the idle
// window after them, and the DOM quieting after they changed it. A page
// that navigated meanwhile or does not answer only ends the wait: the
// navigation's result stands.
func (b *bootWatch) settle(ctx context.Context) {
	if b == nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, settleBound)
	defer cancel()
	var rep settleReport
	b.p.watchCall(sctx, &rep, wpWatchSettle)
}
