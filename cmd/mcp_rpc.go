package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object).
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcInternalError  = -32603
)

// rpcMaxLine bounds one inbound message, as the MCP Go SDK's default
// (16 MiB); a longer line is answered with an error and skipped.
const rpcMaxLine = 16 << 20

// rpcError is a JSON-RPC error object; a handler returns one to answer with
// its code, any other error is answered as an internal error.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

func rpcErrorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// rpcRequest is a request (ID set) or a notification (ID nil).
type rpcRequest struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

// isCall reports whether the request expects an answer.
func (r *rpcRequest) isCall() bool { return r.ID != nil }

// rpcHandler is what serves the methods of a connection.
type rpcHandler interface {
	// handle answers a request, or takes a notification (its result is
	// dropped). It may run concurrently with other calls.
	handle(ctx context.Context, req *rpcRequest) (any, error)
	// inOrder reports whether a request must finish before the next
	// message is read (initialize), rather than run concurrently.
	inOrder(method string) bool
	// batchError is the reason a batch is refused now, or nil.
	batchError() *rpcError
}

// rpcConn serves newline-delimited JSON-RPC 2.0 on a stream: one message
// (or batch) a line in, one answer a line out. Requests run concurrently;
// answers are written whole, one at a time.
type rpcConn struct {
	h      rpcHandler
	w      io.Writer
	wmu    sync.Mutex
	stderr io.Writer // where a handler's panic is told

	mu      sync.Mutex
	running map[string]context.CancelFunc // in-flight requests by their ID's JSON
	calls   sync.WaitGroup
}

func newRPCConn(h rpcHandler, w io.Writer) *rpcConn {
	return &rpcConn{h: h, w: w, stderr: os.Stderr, running: map[string]context.CancelFunc{}}
}

// serve reads messages from r until it ends or ctx does, then cancels the
// calls still running and waits for them.
func (c *rpcConn) serve(ctx context.Context, r io.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		c.calls.Wait()
	}()
	lines := make(chan rpcLine)
	go readLines(ctx, r, lines)
	for {
		select {
		case <-ctx.Done():
			return nil
		case l, ok := <-lines:
			if !ok {
				return nil
			}
			if l.err != nil {
				return fmt.Errorf("mcp: read: %w", l.err)
			}
			c.take(ctx, l)
		}
	}
}

// rpcLine is one line of input, or the read error that ended it.
type rpcLine struct {
	data    []byte
	tooLong bool
	err     error
}

// readLines sends r's lines until it ends (closing out) or ctx does.
func readLines(ctx context.Context, r io.Reader, out chan<- rpcLine) {
	defer close(out)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		l := readRPCLine(br)
		eof := l.err == io.EOF
		if eof {
			if len(l.data) == 0 && !l.tooLong {
				return
			}
			l.err = nil // a last line without its newline
		}
		select {
		case out <- l:
		case <-ctx.Done():
			return
		}
		if eof || l.err != nil {
			return
		}
	}
}

// readRPCLine reads up to the next newline; a line longer than rpcMaxLine is
// consumed but not kept.
func readRPCLine(br *bufio.Reader) rpcLine {
	var l rpcLine
	for {
		chunk, err := br.ReadSlice('\n')
		if !l.tooLong {
			if len(l.data)+len(chunk) > rpcMaxLine {
				l.tooLong, l.data = true, nil
			} else {
				l.data = append(l.data, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		l.err = err
		return l
	}
}

// take handles one line: a message, a batch, or garbage.
func (c *rpcConn) take(ctx context.Context, l rpcLine) {
	if l.tooLong {
		c.writeLine(errorAnswer(nil, rpcErrorf(rpcInvalidRequest, "invalid request: message longer than %d bytes", rpcMaxLine)))
		return
	}
	data := bytes.TrimSpace(l.data)
	if len(data) == 0 {
		return
	}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		c.writeLine(errorAnswer(nil, rpcErrorf(rpcParseError, "parse error: %v", errorText(err))))
		return
	}
	if data[0] == '[' {
		c.takeBatch(ctx, data)
		return
	}
	c.takeMessage(ctx, data, c.writeLine)
}

func errorText(err error) string {
	if err == nil {
		return "invalid JSON"
	}
	return err.Error()
}

// takeBatch handles a JSON array of messages: its answers go back as one
// array once all its requests are answered.
func (c *rpcConn) takeBatch(ctx context.Context, data []byte) {
	var msgs []json.RawMessage
	if err := json.Unmarshal(data, &msgs); err != nil || len(msgs) == 0 {
		c.writeLine(errorAnswer(nil, rpcErrorf(rpcInvalidRequest, "invalid request: empty batch")))
		return
	}
	if e := c.h.batchError(); e != nil {
		c.writeLine(errorAnswer(nil, e))
		return
	}
	b := &rpcBatch{conn: c, answers: make([][]byte, len(msgs)), pending: len(msgs)}
	for i, m := range msgs {
		c.takeMessage(ctx, m, func(a []byte) { b.answer(i, a) })
	}
}

// rpcBatch collects a batch's answers; pending counts the messages not
// yet answered.
type rpcBatch struct {
	conn    *rpcConn
	mu      sync.Mutex
	answers [][]byte
	pending int
}

// answer records message i's answer (nil for a notification) and writes
// the batch's answers, as one array, when the last is in.
func (b *rpcBatch) answer(i int, a []byte) {
	b.mu.Lock()
	b.answers[i] = a
	b.pending--
	done := b.pending == 0
	b.mu.Unlock()
	if !done {
		return
	}
	var parts [][]byte
	for _, a := range b.answers {
		if a != nil {
			parts = append(parts, a)
		}
	}
	if len(parts) > 0 {
		b.conn.writeLine(append(append([]byte{'['}, bytes.Join(parts, []byte{','})...), ']'))
	}
}

// takeMessage validates one message and runs it; reply is called once,
// with its answer, or with nil when it has none (a notification).
func (c *rpcConn) takeMessage(ctx context.Context, data []byte, reply func([]byte)) {
	req, errAns := decodeRequest(data)
	switch {
	case errAns != nil:
		reply(errAns)
		return
	case req == nil:
		reply(nil) // a response: we send no requests, so none is awaited
		return
	case !req.isCall():
		c.h.handle(ctx, req) // notifications run in order, and answer nothing
		reply(nil)
		return
	}
	callCtx, cancel := context.WithCancel(ctx)
	key := string(req.ID)
	c.mu.Lock()
	_, dup := c.running[key]
	if !dup {
		c.running[key] = cancel
		c.calls.Add(1)
	}
	c.mu.Unlock()
	if dup {
		cancel()
		reply(errorAnswer(req.ID, rpcErrorf(rpcInvalidRequest, "invalid request: id %s is already in use by a running request", req.ID)))
		return
	}
	run := func() {
		defer c.calls.Done()
		res, err := c.call(callCtx, req)
		c.mu.Lock()
		delete(c.running, key)
		c.mu.Unlock()
		cancel()
		reply(answer(req.ID, res, err))
	}
	if c.h.inOrder(req.Method) {
		run()
		return
	}
	go run()
}

// call runs a request's handler; a panic in it fails that request, not
// the server (the stack goes to stderr).
func (c *rpcConn) call(ctx context.Context, req *rpcRequest) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(c.stderr, "cdp-skill mcp: %s panicked: %v\n%s", req.Method, p, debug.Stack())
			res, err = nil, rpcErrorf(rpcInternalError, "internal error: %s failed: %v", req.Method, p)
		}
	}()
	return c.h.handle(ctx, req)
}

// cancel cancels the running request with this ID, if any.
func (c *rpcConn) cancel(id json.RawMessage) {
	c.mu.Lock()
	stop := c.running[string(compactJSON(id))]
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// decodeRequest validates a message: a request or notification, nil for a
// response, or the error answer for an invalid one.
func decodeRequest(data []byte) (*rpcRequest, []byte) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return nil, errorAnswer(nil, rpcErrorf(rpcInvalidRequest, "invalid request: a message must be a JSON object"))
	}
	id, hasID := m["id"]
	if hasID && !validID(id) {
		return nil, errorAnswer(nil, rpcErrorf(rpcInvalidRequest, "invalid request: id must be a string or a number, not %s", compactJSON(id)))
	}
	if hasID {
		id = compactJSON(id)
	}
	var version string
	if err := json.Unmarshal(m["jsonrpc"], &version); err != nil || version != "2.0" {
		return nil, errorAnswer(id, rpcErrorf(rpcInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
	}
	rawMethod, hasMethod := m["method"]
	if !hasMethod {
		_, isResult := m["result"]
		_, isError := m["error"]
		if hasID && (isResult || isError) {
			return nil, nil
		}
		return nil, errorAnswer(id, rpcErrorf(rpcInvalidRequest, `invalid request: no "method"`))
	}
	req := &rpcRequest{ID: id, Params: m["params"]}
	if err := json.Unmarshal(rawMethod, &req.Method); err != nil {
		return nil, errorAnswer(id, rpcErrorf(rpcInvalidRequest, `invalid request: "method" must be a string`))
	}
	return req, nil
}

// validID: MCP allows string and number IDs, not null.
func validID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"':
		return true
	case c == '-' || c >= '0' && c <= '9':
		return true
	}
	return false
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// answer is the response to request id: its result, or its error.
func answer(id json.RawMessage, res any, err error) []byte {
	if err != nil {
		var e *rpcError
		if !errors.As(err, &e) {
			e = &rpcError{Code: rpcInternalError, Message: err.Error()}
		}
		return errorAnswer(id, e)
	}
	if res == nil {
		res = struct{}{}
	}
	data, err := marshalPlain(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, res})
	if err != nil {
		return errorAnswer(id, rpcErrorf(rpcInternalError, "encode the result: %v", err))
	}
	return data
}

// marshalPlain is json.Marshal leaving <, > and & as themselves: fewer
// bytes, the same JSON.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// errorAnswer is an error response; id nil answers with a null id, as for
// a message whose id could not be read.
func errorAnswer(id json.RawMessage, e *rpcError) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *rpcError       `json:"error"`
	}{"2.0", id, e})
	return data
}

// writeLine writes one message and its newline in one write, under the
// lock, so concurrent answers never interleave.
func (c *rpcConn) writeLine(data []byte) {
	if data == nil {
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.w.Write(append(data, '\n')) // the client gone: nothing to tell
}
