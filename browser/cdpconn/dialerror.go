package cdpconn

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// HandshakeError is a WebSocket dial the server answered with an HTTP
// status instead of upgrading: a browser pool's limits (429 queue full,
// 408 timed out in the queue) and credentials (401, 403) come this way.
type HandshakeError struct {
	// Status is the HTTP status code.
	Status int
	// Text is the dial error, credentials scrubbed.
	Text string
	err  error
}

func (e *HandshakeError) Error() string { return e.Text }

// Unwrap returns the dial error.
func (e *HandshakeError) Unwrap() error { return e.err }

// scrubbedError is an error whose text had credentials removed; it keeps
// the original for errors.Is.
type scrubbedError struct {
	text string
	err  error
}

func (e *scrubbedError) Error() string { return e.text }
func (e *scrubbedError) Unwrap() error { return e.err }

var handshakeStatus = regexp.MustCompile(`unexpected status "([0-9]{3})`)

// dialError is the error of dialing wsURL: its text never holds the URL's
// credentials, and a refused handshake is a HandshakeError.
func dialError(wsURL string, err error) error {
	text := fmt.Sprintf("dial %s: %s", chrome.RedactURL(wsURL), chrome.ScrubURL(wsURL, err.Error()))
	if m := handshakeStatus.FindStringSubmatch(err.Error()); m != nil {
		code, _ := strconv.Atoi(m[1])
		return &HandshakeError{Status: code, Text: text, err: err}
	}
	return &scrubbedError{text: text, err: err}
}

// PoolAdvice says what to do about a refused handshake, or "".
func PoolAdvice(err error) string {
	var he *HandshakeError
	if !errors.As(err, &he) {
		return ""
	}
	switch he.Status {
	case 429:
		return "the browser pool is full (HTTP 429: every session is busy and its queue is full): retry in a few seconds, close tabs or sessions you no longer need (`cdp-skill chrome stop --endpoint …` ends this agent's session), or raise the pool's limits (browserless: CONCURRENT, QUEUED)"
	case 408:
		return "the browser pool timed the request out (HTTP 408: it waited in the pool's queue past the pool's timeout): retry in a few seconds, or raise the pool's limits"
	case 401, 403:
		return fmt.Sprintf("the browser pool refused the credentials (HTTP %d): give the endpoint with its token, e.g. --endpoint 'ws://host:3000?token=…' or CDP_SKILL_ENDPOINT", he.Status)
	case 404:
		return "the endpoint has no browser at that path (HTTP 404): a pool's session ended, or the URL's path is wrong; give the pool's base URL (ws://host:port?token=…)"
	}
	return ""
}
