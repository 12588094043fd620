package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// A session's page can stop answering for good: its renderer crashed
// (Inspector.targetCrashed), or its main thread is stuck (a script that never
// returns, a dialog nobody can answer). Waiting on such a page only ends at
// the timeout, so the connection remembers the fault: pending commands of the
// session fail at once, and later ones fail fast, except the few that can
// recover the tab (navigation, history, stopping a load).

// Reload and CloseTab are the steps that recover a tab whose page
// crashed or does not answer.
var (
	Reload   = suggest.Step{Name: "reload", Value: true}
	CloseTab = suggest.Step{Name: "closeTab", Value: true}
)

// CrashHint tells the agent how to recover a crashed tab.
var CrashHint = suggest.New("reload it with %s (the page starts afresh: its state is lost) or close it with %s", Reload, CloseTab)

// sessionFault is why a session's page cannot answer.
type sessionFault struct {
	err *Error
	// suspected marks a page that was slow to answer at attach: commands
	// still run (a loaded machine is slow, not broken), but a navigation
	// recovers it first, and a step that times out probes it.
	suspected bool
}

// recoveryMethods may run on a faulted session: they are answered by the
// browser process and can bring the page back.
var recoveryMethods = map[string]bool{
	"Inspector.enable":            true,
	"Page.navigate":               true,
	"Page.reload":                 true,
	"Page.stopLoading":            true,
	"Page.getNavigationHistory":   true,
	"Page.navigateToHistoryEntry": true,
	"Page.handleJavaScriptDialog": true,
}

// crashError is the error of a command on a crashed page.
func crashError(method string) *Error {
	msg := "the tab's page crashed (its renderer process died)"
	if method != "" {
		msg += " (while waiting for " + method + ")"
	}
	return (&Error{Kind: KindPageCrashed, Message: msg}).WithAdvice(CrashHint)
}

// noteHealth updates the faults from an event. c.mu is held.
func (c *Conn) noteHealth(msg *cdproto.Message) {
	switch msg.Method {
	case "Inspector.targetCrashed":
		c.setFault(msg.SessionID, &sessionFault{err: crashError("")})
		for id, pc := range c.pending {
			if pc.session == msg.SessionID && !recoveryMethods[pc.method] {
				delete(c.pending, id)
				pc.ch <- reply{err: crashError(pc.method)}
			}
		}
	case "Inspector.targetReloadedAfterCrash":
		if f := c.broken[msg.SessionID]; f != nil && f.err.Kind == KindPageCrashed {
			c.setFault(msg.SessionID, nil)
		}
	}
}

// setFault records (or with nil clears) a session's fault and wakes waiters.
// c.mu is held.
func (c *Conn) setFault(session target.SessionID, f *sessionFault) {
	if f == nil {
		delete(c.broken, session)
	} else {
		c.broken[session] = f
	}
	if c.faultChanged != nil {
		close(c.faultChanged)
		c.faultChanged = nil
	}
}

// faultFor is the error a command gets on a faulted session, nil when it
// may run. c.mu is held.
func (c *Conn) faultFor(session target.SessionID, method string) error {
	f := c.broken[session]
	if f == nil || f.suspected || recoveryMethods[method] {
		return nil
	}
	e := *f.err
	return &e
}

// Fault returns why the session's page cannot answer, or nil.
func (s *Session) Fault() *Error {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if f := s.conn.broken[s.id]; f != nil {
		e := *f.err
		return &e
	}
	return nil
}

// suspected reports whether the session's fault is only suspected.
func (s *Session) suspected() bool {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	f := s.conn.broken[s.id]
	return f != nil && f.suspected
}

// Crashed reports whether the session's renderer crashed (and was not
// reloaded since).
func (s *Session) Crashed() bool {
	f := s.Fault()
	return f != nil && f.Kind == KindPageCrashed
}

// suspectUnresponsive notes that the page was slow to answer; see
// sessionFault.suspected.
func (s *Session) suspectUnresponsive(err *Error) {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if s.conn.broken[s.id] == nil {
		s.conn.setFault(s.id, &sessionFault{err: err, suspected: true})
	}
}

// clearSuspicion forgets a suspected fault once the page answered.
func (s *Session) clearSuspicion() {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if f := s.conn.broken[s.id]; f != nil && f.suspected {
		s.conn.setFault(s.id, nil)
	}
}

// markUnresponsive makes later commands on the session fail fast with err
// (nil clears it).
func (s *Session) markUnresponsive(err *Error) {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if err == nil {
		if f := s.conn.broken[s.id]; f != nil && f.err.Kind == KindPageUnresponsive {
			s.conn.setFault(s.id, nil)
		}
		return
	}
	if f := s.conn.broken[s.id]; f != nil && f.err.Kind == KindPageCrashed {
		return // a crash says more
	}
	s.conn.setFault(s.id, &sessionFault{err: err})
}

// waitRecovered waits until the session's crash fault is cleared by
// Inspector.targetReloadedAfterCrash.
func (s *Session) waitRecovered(ctx context.Context) bool {
	return s.waitCrashed(ctx, false, nil)
}

// waitCrashed waits until the session's renderer is reported crashed
// (crashed true) or no longer is (false). It returns false when deadline
// fires (nil: never), ctx ends or the connection closes.
func (s *Session) waitCrashed(ctx context.Context, crashed bool, deadline <-chan time.Time) bool {
	for {
		s.conn.mu.Lock()
		if f := s.conn.broken[s.id]; (f != nil && f.err.Kind == KindPageCrashed) == crashed {
			s.conn.mu.Unlock()
			return true
		}
		ch := s.conn.faultWaiter()
		s.conn.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			return false
		case <-ctx.Done():
			return false
		case <-s.conn.closed:
			return false
		}
	}
}

// faultWaiter returns a channel closed at the next fault change. c.mu is
// held.
func (c *Conn) faultWaiter() chan struct{} {
	if c.faultChanged == nil {
		c.faultChanged = make(chan struct{})
	}
	return c.faultChanged
}

// waitCrash waits up to d for the session's renderer to be reported
// crashed.
func (s *Session) waitCrash(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	return s.waitCrashed(ctx, true, t.C)
}

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
	if f := p.sess.Fault(); f != nil && !p.sess.suspected() {
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
	p.sess.markUnresponsive(e)
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
	p.sess.markUnresponsive(nil)
	if _, err := cdp.Call(ctx, p.sess, page.Reload, page.ReloadParams{}); err != nil {
		return fmt.Errorf("reload the %s tab: %w", f.Kind, err)
	}
	if f.Kind == KindPageCrashed && !p.sess.waitRecovered(ctx) {
		return crashError("its reload")
	}
	// The reload is what the agent asked for: it may take the step's time.
	if err := p.enableDomains(ctx, 0); err != nil {
		if p.sess.Crashed() {
			return crashError("its reload")
		}
		waited := blockedAfter
		if dl, ok := ctx.Deadline(); ok {
			waited = time.Until(dl)
		}
		e := unresponsiveError(waited, "it was reloaded and still does not answer (its renderer is stuck)")
		e.WithAdvice(suggest.New("close it with %s and open a new tab; tabs of other sites keep working", CloseTab))
		p.sess.markUnresponsive(e)
		return e
	}
	p.mu.Lock()
	p.Warnings = append(p.Warnings, fmt.Sprintf("the tab was reloaded first to recover it (%s)", f.Kind))
	p.mu.Unlock()
	return nil
}
