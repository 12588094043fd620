package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
)

// NotDevToolsError means that something holds the endpoint's port but
// does not answer as Chrome's DevTools endpoint: a program that is not
// Chrome, or a Chrome that is frozen or overloaded. What says what was
// seen on the port.
type NotDevToolsError struct {
	// Endpoint is the endpoint asked (host:port or a redacted URL).
	Endpoint string
	// What describes what answered, e.g. "it accepts connections but sent
	// nothing".
	What string
	// Silent reports that nothing came back at all (a frozen or
	// overloaded Chrome may still answer later), as opposed to an answer
	// that is not Chrome's.
	Silent bool
	// Ours describes the Chrome cdp-skill launched on the port, when one
	// still runs there (then it is frozen or overloaded).
	Ours *Process
}

func (e *NotDevToolsError) Error() string {
	if e.Ours != nil {
		return fmt.Sprintf("the Chrome cdp-skill launched on %s (pid %d) does not answer: it is frozen or overloaded (%s). Wait and retry, or run `cdp-skill chrome stop --port %d` to end it", e.Endpoint, e.Ours.PID, e.What, e.Ours.Port)
	}
	return fmt.Sprintf("something on %s is not Chrome's DevTools endpoint: %s. End that program, or give the port of a Chrome started with --remote-debugging-port (--port, or \"port\" on openTab); a free port gets a Chrome launched", e.Endpoint, e.What)
}

// discoveryError classifies the error of a discovery request to e: nothing
// listening stays err itself; anything else that holds the port becomes a
// NotDevToolsError saying what answered.
func discoveryError(e Endpoint, path string, err error) error {
	what := ""
	silent := false
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var status *httpStatusError
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &status):
		what = fmt.Sprintf("an HTTP server answered GET %s with HTTP %d", path, status.code)
	case errors.As(err, &syn), errors.As(err, &typ), errors.Is(err, errNoWebSocketURL):
		what = fmt.Sprintf("it answered GET %s with something that is not Chrome's JSON", path)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		what = fmt.Sprintf("it accepts connections but did not answer GET %s in time", path)
		silent = true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		what = fmt.Sprintf("it accepts connections and closes them without an HTTP answer to GET %s", path)
	default:
		return err
	}
	nd := &NotDevToolsError{Endpoint: e.String(), What: what, Silent: silent}
	if !e.Remote() {
		if proc, alive := Launched(e.Normalize().Port); alive {
			nd.Ours = proc
		}
	}
	return nd
}

// httpStatusError is a discovery answer that is not 200 OK.
type httpStatusError struct {
	method, url string
	code        int
	body        string
}

func (e *httpStatusError) Error() string {
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.method, e.url, e.code, e.body)
}

// errNoWebSocketURL is a /json/version answer without the browser's
// WebSocket URL.
var errNoWebSocketURL = errors.New("no webSocketDebuggerUrl")
