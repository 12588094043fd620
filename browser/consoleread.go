package browser

import (
	"context"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
)

// ConsoleOptions filter Console.Read (spec §11.14).
type ConsoleOptions struct {
	// Limit keeps the most recent messages (default 50).
	Limit int
	// Level keeps one level: error, warning (or warn), info, log, debug.
	Level string
	// Type keeps one type: console, exception or log.
	Type string
	// Since keeps messages after this time (milliseconds since the epoch).
	Since float64
	// StackTrace keeps the messages' stack traces.
	StackTrace bool
	// Clear empties the buffer after reading it.
	Clear bool
}

// ConsoleRead is the answer of Console.Read.
type ConsoleRead struct {
	Total    int              `json:"total"`
	Showing  int              `json:"showing"`
	Messages []ConsoleMessage `json:"messages"`
}

var consoleLevels = map[string]string{"error": "error", "warning": "warning", "warn": "warning", "info": "info", "log": "log", "debug": "debug"}

// Read returns the console messages captured since the session attached
// (each invocation starts empty), filtered, most recent last.
func (c *Console) Read(ctx context.Context, o ConsoleOptions) (*ConsoleRead, error) {
	level, ok := consoleLevels[strings.ToLower(o.Level)]
	if o.Level != "" && !ok {
		return nil, Errorf(KindStepValidation, "console level %q is not one of error, warning, info, log, debug", o.Level)
	}
	switch o.Type {
	case "", "console", "exception", "log":
	default:
		return nil, Errorf(KindStepValidation, "console type %q is not one of console, exception, log", o.Type)
	}
	if o.Limit <= 0 {
		o.Limit = 50
	}
	c.barrier(ctx)
	var all []ConsoleMessage
	if o.Clear {
		all = c.take()
	} else {
		all = c.Since(time.Time{})
	}
	msgs := filterConsole(all, level, o)
	out := &ConsoleRead{Total: len(msgs), Messages: msgs[max(0, len(msgs)-o.Limit):]}
	out.Showing = len(out.Messages)
	if out.Messages == nil {
		out.Messages = []ConsoleMessage{}
	}
	return out, nil
}

// filterConsole keeps the messages of level (normalized) and o's type and
// time, with stacks only when asked.
func filterConsole(all []ConsoleMessage, level string, o ConsoleOptions) []ConsoleMessage {
	var msgs []ConsoleMessage
	for _, m := range all {
		if (level == "" || m.Level == level) && (o.Type == "" || m.Type == o.Type) && m.Time > o.Since {
			if !o.StackTrace {
				m.Stack = nil
			}
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// consoleBarrierBound bounds barrier's wait for the buffer to take in
// the events counted (milliseconds, even for thousands): a session whose
// subscriptions ended with events unread is read as it stands then.
const consoleBarrierBound = time.Second

// barrier lets console events the page sent before now reach the
// buffer: a round trip on the page's session (Chrome sends the events
// ahead of the answer, and the connection counts them as they arrive),
// then a wait until the buffering goroutine has handled every event
// counted.
func (c *Console) barrier(ctx context.Context) {
	cdp.Call(ctx, c.sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "0"})
	ctx, cancel := context.WithTimeout(ctx, consoleBarrierBound)
	defer cancel()
	c.gate.wait(ctx)
}
