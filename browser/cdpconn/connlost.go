package cdpconn

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// ConnLostError is the error of the calls on a connection whose other end
// closed it: Chrome exited or crashed, or a browser pool ended the session
// (its session timeout, a restart). The WebSocket's own error ("a frame
// has a reserved bit set", EOF) says nothing useful to an agent; this says
// what happened and what to do. It is a CONNECTION error.
type ConnLostError struct {
	// Endpoint is where the connection went (host:port, or a pool's URL
	// with its credentials redacted).
	Endpoint string
	// Pool says the endpoint is a remote URL that is not a plain
	// Chrome's DevTools path: a pool that gives each connection (session)
	// a browser of its own, which ends with it.
	Pool bool
	// Cause is the transport's error, credentials scrubbed.
	Cause string
}

func (e *ConnLostError) Error() string {
	if e.Pool {
		return fmt.Sprintf("the browser pool at %s ended this session while the command ran (%s): the pool's session timeout passed (browserless: add &timeout=<ms> to the endpoint URL, or raise TIMEOUT), the pool restarted, or `cdp-skill chrome stop` ended it. The pool gives every session its own browser, so this session's tabs, aliases and refs are lost: start again with %s, which opens a new session", e.Endpoint, e.Cause, OpenTab.JSON())
	}
	return fmt.Sprintf("the connection to Chrome at %s closed while the command ran (%s): Chrome exited, crashed or was restarted. Run the command again; if its tab is gone, open a new one with %s", e.Endpoint, e.Cause, OpenTab.JSON())
}

// Is makes a ConnLostError an ErrConnClosed.
func (e *ConnLostError) Is(target error) bool { return target == ErrConnClosed }

// TypedHint is the step the error's text suggests, for each frontend to
// write in its own syntax.
func (e *ConnLostError) TypedHint() *suggest.Hint { return suggest.New("%s", OpenTab) }

// lostError is the error of calls on c once its transport failed with
// err: a ConnectionError saying the other end closed it, unless this
// process closed it.
func (c *Conn) lostError(err error) error {
	if c.closing.Load() {
		return fmt.Errorf("%w: %v", ErrConnClosed, err)
	}
	ep, pool := connEndpoint(c.url)
	lost := &ConnLostError{Endpoint: ep, Pool: pool, Cause: chrome.ScrubURL(c.url, err.Error())}
	return &ConnectionError{Endpoint: ep, Err: lost}
}

// connEndpoint names the endpoint of a browser WebSocket URL: host:port
// for a Chrome's own /devtools/ URL, else the redacted URL of a pool.
func connEndpoint(wsURL string) (string, bool) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return chrome.RedactURL(wsURL), true
	}
	if strings.HasPrefix(u.Path, "/devtools/") {
		return u.Host, false
	}
	return chrome.RedactURL(wsURL), true
}
