package cdpconn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// ErrTabNotFound is wrapped when a target id does not name an open tab.
var ErrTabNotFound = errors.New("tab not found")

// ConnectionError means Chrome or the tab cannot be reached (error type
// CONNECTION).
type ConnectionError struct {
	Endpoint string
	Err      error
}

func (e *ConnectionError) Error() string {
	msg := fmt.Sprintf("cannot connect to Chrome at %s: %v", e.Endpoint, e.Err)
	switch {
	case errors.Is(e.Err, chrome.ErrNotInstalled):
		return e.Err.Error()
	case errors.As(e.Err, new(*ConnLostError)):
		return e.Err.Error()
	case errors.As(e.Err, new(*chrome.NotDevToolsError)):
		return "cannot connect to Chrome: " + e.Err.Error()
	case errors.Is(e.Err, chrome.ErrLaunch):
		return msg + ". Check that the port is free, or run `cdp-skill chrome status` to see what runs there"
	case PoolAdvice(e.Err) != "":
		return fmt.Sprintf("cannot connect to %s: %s", e.Endpoint, PoolAdvice(e.Err))
	case errors.As(e.Err, new(*TabGoneError)) && strings.Contains(e.Endpoint, "://"):
		// A remote endpoint: on a browser pool each session (connection)
		// has a browser of its own, which ends with the session.
		var g *TabGoneError
		errors.As(e.Err, &g)
		return fmt.Sprintf("tab %s (%s) is gone, so its alias is removed. On a browser pool (%s) this means the session that held it ended: the pool's session timeout passed (browserless: add &timeout=<ms> to the endpoint URL, or raise TIMEOUT), the pool restarted, or `cdp-skill chrome stop` ended it; the pool gives every session its own browser, so that session's tabs, aliases and refs are lost. Start again: %s (on a plain remote Chrome, the tab was closed)", g.Alias, g.TargetID, e.Endpoint, e.TypedHint().Render(suggest.JSON))
	case errors.Is(e.Err, ErrTabNotFound):
		// Chrome answered: the tab is what is missing.
		return e.Err.Error() + ": " + e.TypedHint().Render(suggest.JSON)
	case errors.Is(e.Err, state.ErrUnknownTab):
		return e.Err.Error()
	}
	return msg
}

// TabGoneError is the error of attaching a tab, by its alias, that is no
// longer open; its alias is then removed.
type TabGoneError struct {
	Alias    string
	TargetID string
}

func (e *TabGoneError) Error() string {
	return fmt.Sprintf("tab %s (%s) is gone (closed by the page, the user or another agent), so its alias is removed", e.Alias, e.TargetID)
}

// Is makes a TabGoneError an ErrTabNotFound.
func (e *TabGoneError) Is(target error) bool { return target == ErrTabNotFound }

func (e *ConnectionError) Unwrap() error { return e.Err }

// TypedHint is the hint the error's text ends with when it names steps
// (the tab is gone or not found), for each frontend to write in its own
// syntax; nil otherwise.
func (e *ConnectionError) TypedHint() *suggest.Hint {
	switch {
	case errors.As(e.Err, new(*TabGoneError)) && strings.Contains(e.Endpoint, "://"):
		return suggest.New("open a new tab with %s", OpenTab)
	case errors.Is(e.Err, ErrTabNotFound):
		return ListOrOpenTab
	}
	return nil
}
