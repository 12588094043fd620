package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// A session's page can stop answering for good: its renderer crashed
// (Inspector.targetCrashed), or its main thread is stuck (a script that never
// returns, a dialog nobody can answer). Waiting on such a page only ends at
// the timeout, so the connection remembers the fault: pending commands of the
// session fail at once, and later ones fail fast, except the few that can
// recover the tab (navigation, history, stopping a load).

// unresponsiveError is the error of a command on a page whose main thread
// does not answer.
func unresponsiveError(waited time.Duration, why string) *Error {
	e := &Error{Kind: KindPageUnresponsive,
		Message: fmt.Sprintf("the tab's page did not answer for %s: %s", waited.Round(100*time.Millisecond), why)}
	return e.WithAdvice(suggest.New("reload it with %s (its page state is lost) or close it with %s; tabs of other sites keep working", Reload, CloseTab))
}

// Probe checks that the page's main thread answers within d. When it does
// not, later commands on the tab fail fast with the returned
// PageUnresponsiveError (a crash gives PageCrashedError) until a navigation
// recovers it.
func (p *Page) Probe(ctx context.Context, d time.Duration) error {
	if f := p.sess.Fault(); f != nil && !p.sess.Suspected() {
		return f
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	defer cancel()
	err := p.sess.Call(pctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil)
	if err == nil || pctx.Err() == nil {
		if f := p.sess.Fault(); f != nil {
			return f
		}
		return nil
	}
	if stopped := p.stopScript(ctx); stopped != nil {
		return stopped
	}
	e := unresponsiveError(d, "its main thread is busy (a script that never returns, such as an endless loop in an event handler) or blocked by a JavaScript dialog that opened while no command was connected")
	p.sess.MarkUnresponsive(e)
	return e
}

// stopScript ends a page script that does not return
// (Runtime.terminateExecution, which works on a session that enabled
// Runtime before the script started) and reports it when the page answers
// again; nil when it could not.
func (p *Page) stopScript(ctx context.Context) *Error {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := p.sess.Call(sctx, "Runtime.terminateExecution", nil, nil); err != nil {
		return nil
	}
	if err := p.sess.Call(sctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); err != nil {
		return nil
	}
	return &Error{Kind: KindPageUnresponsive,
		Message: "a page script ran without returning (an endless loop?) and was stopped",
		Hint:    "the tab answers again and keeps its state, but what that script was doing did not finish"}
}

// recoverFault brings a faulted page back before a navigation: a crashed
// renderer restarts with a reload; a blocked one is reloaded too (a
// navigation is the only way past a dialog no command can answer). It fails
// when the page still does not answer.
func (p *Page) recoverFault(ctx context.Context) error {
	f := p.sess.Fault()
	if f == nil {
		return nil
	}
	p.sess.MarkUnresponsive(nil)
	if _, err := cdp.Call(ctx, p.sess, page.Reload, page.ReloadParams{}); err != nil {
		return fmt.Errorf("reload the %s tab: %w", f.Kind, err)
	}
	if f.Kind == KindPageCrashed && !p.sess.WaitRecovered(ctx) {
		return cdpconn.CrashError("its reload")
	}
	// The reload is what the agent asked for: it may take the step's time.
	if err := p.enableDomains(ctx, 0); err != nil {
		if p.sess.Crashed() {
			return cdpconn.CrashError("its reload")
		}
		waited := blockedAfter
		if dl, ok := ctx.Deadline(); ok {
			waited = time.Until(dl)
		}
		e := unresponsiveError(waited, "it was reloaded and still does not answer (its renderer is stuck)")
		e.WithAdvice(suggest.New("close it with %s and open a new tab; tabs of other sites keep working", CloseTab))
		p.sess.MarkUnresponsive(e)
		return e
	}
	p.mu.Lock()
	p.Warnings = append(p.Warnings, fmt.Sprintf("the tab was reloaded first to recover it (%s)", f.Kind))
	p.mu.Unlock()
	return nil
}
