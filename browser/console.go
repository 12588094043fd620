package browser

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	logdom "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
)

// maxConsole bounds the console buffer (spec §17.2); the oldest go first.
const maxConsole = 10000

// ConsoleMessage is one console call, uncaught exception, or browser log
// entry (failed resource loads, CSP violations).
type ConsoleMessage struct {
	// Type is console, exception or log.
	Type  string `json:"type"`
	Level string `json:"level"`
	Text  string `json:"text"`
	URL   string `json:"url,omitempty"`
	Line  int64  `json:"line,omitempty"`
	// Time is when it happened (milliseconds since the epoch).
	Time  float64      `json:"timestamp"`
	Stack []StackFrame `json:"stackTrace,omitempty"`
	at    time.Time
}

// StackFrame is one frame of a console message's stack.
type StackFrame struct {
	Function string `json:"function,omitempty"`
	URL      string `json:"url"`
	Line     int64  `json:"line"`
	Column   int64  `json:"column"`
}

// Console buffers a tab's console calls, uncaught exceptions and browser
// log entries from the time the session attached. Reach it by
// Page.Console.
type Console struct {
	sess *Session
	mu   sync.Mutex
	msgs []ConsoleMessage
	// gate counts the events received and buffered (barrier).
	gate feedGate
}

func (l *Console) add(m ConsoleMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.msgs) >= maxConsole {
		l.msgs = l.msgs[1:]
	}
	// Console calls, exceptions and log entries come through separate
	// subscriptions, so one may be read before an earlier one: keep the
	// buffer in the page's order by timestamp.
	i := len(l.msgs)
	for i > 0 && l.msgs[i-1].Time > m.Time {
		i--
	}
	l.msgs = slices.Insert(l.msgs, i, m)
}

// track subscribes to console calls, exceptions and log entries
// before the domains are enabled.
func (c *Console) track(onClose func(...func())) {
	calls, inC, stopC := c.sess.SubscribeCounted("Runtime.consoleAPICalled")
	exceptions, inE, stopE := c.sess.SubscribeCounted("Runtime.exceptionThrown")
	entries, inL, stopL := c.sess.SubscribeCounted("Log.entryAdded")
	onClose(stopC, stopE, stopL)
	feedC, feedE, feedL := c.gate.add(inC), c.gate.add(inE), c.gate.add(inL)
	go func() {
		for {
			select {
			case raw, ok := <-calls:
				if !ok {
					return
				}
				var ev runtime.EventConsoleAPICalled
				if decode(raw, &ev) == nil {
					c.add(consoleCall(&ev))
				}
				c.gate.handled(feedC)
			case raw, ok := <-exceptions:
				if !ok {
					return
				}
				var ev runtime.EventExceptionThrown
				if decode(raw, &ev) == nil && ev.ExceptionDetails != nil {
					c.add(consoleException(&ev))
				}
				c.gate.handled(feedE)
			case raw, ok := <-entries:
				if !ok {
					return
				}
				var ev logdom.EventEntryAdded
				if decode(raw, &ev) == nil && ev.Entry != nil && !faviconMiss(ev.Entry) {
					c.add(consoleEntry(ev.Entry))
				}
				c.gate.handled(feedL)
			}
		}
	}()
}

func consoleLevel(t string) string {
	switch t {
	case "error", "assert":
		return "error"
	case "warning", "warn":
		return "warning"
	case "debug", "verbose":
		return "debug"
	case "info":
		return "info"
	}
	return "log"
}

func consoleCall(ev *runtime.EventConsoleAPICalled) ConsoleMessage {
	var parts []string
	for _, a := range ev.Args {
		parts = append(parts, remoteText(a))
	}
	m := ConsoleMessage{Type: "console", Level: consoleLevel(string(ev.Type)), Text: clipText(strings.Join(parts, " "), 500), Time: float64(ev.Timestamp)}
	m.Stack = stackOf(ev.StackTrace)
	if len(m.Stack) > 0 {
		m.URL, m.Line = m.Stack[0].URL, m.Stack[0].Line
	}
	m.at = time.UnixMilli(int64(ev.Timestamp))
	return m
}

func consoleException(ev *runtime.EventExceptionThrown) ConsoleMessage {
	d := ev.ExceptionDetails
	m := ConsoleMessage{Type: "exception", Level: "error", Text: clipText(exceptionText(d), 500), URL: d.URL, Line: d.LineNumber + 1, Time: float64(ev.Timestamp)}
	m.Stack = stackOf(d.StackTrace)
	m.at = time.UnixMilli(int64(ev.Timestamp))
	return m
}

// faviconMiss reports the browser's own failed favicon request, which no
// page code caused and which would only cost an agent tokens.
func faviconMiss(e *logdom.Entry) bool {
	return e.Source == logdom.EntrySourceNetwork && strings.HasSuffix(e.URL, "/favicon.ico")
}

func consoleEntry(e *logdom.Entry) ConsoleMessage {
	m := ConsoleMessage{Type: "log", Level: consoleLevel(string(e.Level)), Text: clipText(e.Text, 500), URL: e.URL, Line: e.LineNumber, Time: float64(e.Timestamp)}
	m.at = time.UnixMilli(int64(e.Timestamp))
	return m
}

// remoteText formats a console argument as the console shows it.
func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if len(o.Value) > 0 {
		s := string(o.Value)
		if o.Type == "string" {
			var v string
			if jsonUnmarshal(o.Value, &v) == nil {
				return v
			}
		}
		return s
	}
	if o.UnserializableValue != "" {
		return string(o.UnserializableValue)
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Type)
}

func stackOf(st *runtime.StackTrace) []StackFrame {
	if st == nil {
		return nil
	}
	var out []StackFrame
	for _, f := range st.CallFrames {
		out = append(out, StackFrame{Function: f.FunctionName, URL: f.URL, Line: f.LineNumber + 1, Column: f.ColumnNumber + 1})
		if len(out) == 10 {
			break
		}
	}
	return out
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Since returns the messages captured since the session started that
// happened at or after since.
func (c *Console) Since(since time.Time) []ConsoleMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []ConsoleMessage
	for _, m := range c.msgs {
		if !m.at.Before(since) {
			out = append(out, m)
		}
	}
	return out
}

// take returns the captured messages and empties the buffer in one
// locked step, so a message arriving meanwhile is either returned or kept
// for the next read, never dropped.
func (c *Console) take() []ConsoleMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.msgs
	c.msgs = nil
	return out
}

// Clear forgets the captured messages.
func (c *Console) Clear() {
	c.mu.Lock()
	c.msgs = nil
	c.mu.Unlock()
}

// enable turns on the Log domain (browser-side messages).
func (c *Console) enable(ctx context.Context) error {
	if _, err := cdp.Call(ctx, c.sess, logdom.Enable, cdp.Empty{}); err != nil {
		return fmt.Errorf("Log.enable: %w", err)
	}
	return nil
}

// exceptionText is what an exception says: its message without the
// stack, or the value thrown.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		desc := d.Exception.Description
		// Keep the first line of the stack: the message itself.
		if i := strings.Index(desc, "\n    at "); i > 0 {
			desc = desc[:i]
		}
		return desc
	}
	if d.Exception != nil && len(d.Exception.Value) > 0 {
		return "Uncaught " + string(d.Exception.Value)
	}
	return d.Text
}
