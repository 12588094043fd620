package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// httpCancels are the tools/calls HTTP clients cancelled, by session and
// request id (its JSON): their responses are not sent (the MCP spec: the
// receiver of a cancellation should not answer the request; the SDK does).
type httpCancels struct {
	mu  sync.Mutex
	set map[string]bool
}

func httpCallKey(session string, id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return session + "|" + string(id)
	}
	return session + "|" + b.String()
}

func (c *httpCancels) cancel(key string) {
	c.mu.Lock()
	if c.set == nil {
		c.set = map[string]bool{}
	}
	c.set[key] = true
	c.mu.Unlock()
}

func (c *httpCancels) cancelled(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.set[key]
}

func (c *httpCancels) forget(key string) {
	c.mu.Lock()
	delete(c.set, key)
	c.mu.Unlock()
}

// cancelFilter is the response of one POSTed tools/call: it passes each
// server-sent event (or the JSON body) through unless it is the call's
// response and the client cancelled the call.
type cancelFilter struct {
	http.ResponseWriter
	c   *httpCancels
	key string
	id  json.RawMessage
	buf []byte
}

func (f *cancelFilter) Write(p []byte) (int, error) {
	f.buf = append(f.buf, p...)
	for {
		i := bytes.Index(f.buf, []byte("\n\n"))
		if i < 0 {
			return len(p), nil
		}
		ev := f.buf[:i+2]
		f.buf = f.buf[i+2:]
		if !f.drop(ev) {
			if _, err := f.ResponseWriter.Write(ev); err != nil {
				return len(p), err
			}
		}
	}
}

// Flush passes the events written so far on.
func (f *cancelFilter) Flush() {
	if fl, ok := f.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// end writes what is left (a JSON body, an event without its blank line).
func (f *cancelFilter) end() {
	if len(f.buf) > 0 && !f.drop(f.buf) {
		f.ResponseWriter.Write(f.buf)
	}
	f.buf = nil
}

// drop reports whether an event or body is the cancelled call's response.
func (f *cancelFilter) drop(ev []byte) bool {
	if !f.c.cancelled(f.key) {
		return false
	}
	data := ev
	if i := bytes.Index(ev, []byte("data: ")); i >= 0 {
		data = ev[i+len("data: "):]
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			data = data[:j]
		}
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(bytes.TrimSpace(data), &msg) != nil || msg.Result == nil && msg.Error == nil {
		return false
	}
	var a, b bytes.Buffer
	json.Compact(&a, msg.ID)
	json.Compact(&b, f.id)
	return a.String() == b.String()
}
