package cdpconn

import (
	"context"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/target"
)

// Reload and CloseTab are the steps that recover a tab whose page
// crashed or does not answer.
var (
	Reload   = suggest.Step{Name: "reload", Value: true}
	CloseTab = suggest.Step{Name: "closeTab", Value: true}
)

// ListTabs, OpenTab and SwitchTab are the steps the hints of a tab that is
// gone or unknown suggest; each frontend writes them in its own syntax
// (list_tabs() in a recipe, {"listTabs":true} in a JSON command).
var (
	ListTabs  = suggest.Step{Name: "listTabs", Value: true}
	OpenTab   = suggest.Step{Name: "openTab", Value: true}
	SwitchTab = suggest.Step{Name: "switchTab", Value: "t…"}
)

// ListOrOpenTab is the hint of a tab that is not open.
var ListOrOpenTab = suggest.New("run %s to see the open tabs, or open a new one with %s", ListTabs, OpenTab)

// CrashHint tells the agent how to recover a crashed tab.
var CrashHint = suggest.New("reload it with %s (the page starts afresh: its state is lost) or close it with %s", Reload, CloseTab)

// sessionFault is why a session's page cannot answer.
type sessionFault struct {
	err *failure.Error
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

// CrashError is the error of a command on a crashed page.
func CrashError(method string) *failure.Error {
	msg := "the tab's page crashed (its renderer process died)"
	if method != "" {
		msg += " (while waiting for " + method + ")"
	}
	return (&failure.Error{Kind: failure.KindPageCrashed, Message: msg}).WithAdvice(CrashHint)
}

// noteHealth updates the faults from an event. c.mu is held.
func (c *Conn) noteHealth(msg *cdproto.Message) {
	switch msg.Method {
	case "Inspector.targetCrashed":
		c.setFault(msg.SessionID, &sessionFault{err: CrashError("")})
		for id, pc := range c.pending {
			if pc.session == msg.SessionID && !recoveryMethods[pc.method] {
				delete(c.pending, id)
				pc.ch <- reply{err: CrashError(pc.method)}
			}
		}
	case "Inspector.targetReloadedAfterCrash":
		if f := c.broken[msg.SessionID]; f != nil && f.err.Kind == failure.KindPageCrashed {
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
func (s *Session) Fault() *failure.Error {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if f := s.conn.broken[s.id]; f != nil {
		e := *f.err
		return &e
	}
	return nil
}

// Suspected reports whether the session's fault is only suspected.
func (s *Session) Suspected() bool {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	f := s.conn.broken[s.id]
	return f != nil && f.suspected
}

// Crashed reports whether the session's renderer crashed (and was not
// reloaded since).
func (s *Session) Crashed() bool {
	f := s.Fault()
	return f != nil && f.Kind == failure.KindPageCrashed
}

// SuspectUnresponsive notes that the page was slow to answer; see
// sessionFault.suspected.
func (s *Session) SuspectUnresponsive(err *failure.Error) {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if s.conn.broken[s.id] == nil {
		s.conn.setFault(s.id, &sessionFault{err: err, suspected: true})
	}
}

// ClearSuspicion forgets a suspected fault once the page answered.
func (s *Session) ClearSuspicion() {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if f := s.conn.broken[s.id]; f != nil && f.suspected {
		s.conn.setFault(s.id, nil)
	}
}

// MarkUnresponsive makes later commands on the session fail fast with err
// (nil clears it).
func (s *Session) MarkUnresponsive(err *failure.Error) {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	if err == nil {
		if f := s.conn.broken[s.id]; f != nil && f.err.Kind == failure.KindPageUnresponsive {
			s.conn.setFault(s.id, nil)
		}
		return
	}
	if f := s.conn.broken[s.id]; f != nil && f.err.Kind == failure.KindPageCrashed {
		return // a crash says more
	}
	s.conn.setFault(s.id, &sessionFault{err: err})
}

// WaitRecovered waits until the session's crash fault is cleared by
// Inspector.targetReloadedAfterCrash.
func (s *Session) WaitRecovered(ctx context.Context) bool {
	return s.waitCrashed(ctx, false, nil)
}

// waitCrashed waits until the session's renderer is reported crashed
// (crashed true) or no longer is (false). It returns false when deadline
// fires (nil: never), ctx ends or the connection closes.
func (s *Session) waitCrashed(ctx context.Context, crashed bool, deadline <-chan time.Time) bool {
	for {
		s.conn.mu.Lock()
		if f := s.conn.broken[s.id]; (f != nil && f.err.Kind == failure.KindPageCrashed) == crashed {
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

// WaitCrash waits up to d for the session's renderer to be reported
// crashed.
func (s *Session) WaitCrash(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	return s.waitCrashed(ctx, true, t.C)
}
