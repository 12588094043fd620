package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound message, as the SDK's default (16 MiB).
const maxLine = 16 << 20

// lineTransport is newline-delimited JSON-RPC on a reader and writer, like
// the SDK's stdio transport except that a malformed line is answered with
// an error and skipped rather than ending the session (the SDK's closes
// the connection on the first bad line). Batches are refused.
type lineTransport struct {
	r io.ReadCloser
	w io.Writer
}

func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{r: t.r, w: t.w, lines: make(chan lineOrErr), closed: make(chan struct{})}
	go c.readLines()
	return c, nil
}

type lineOrErr struct {
	data []byte
	err  error
}

// lineConn is a lineTransport's connection.
type lineConn struct {
	r      io.ReadCloser
	w      io.Writer
	wmu    sync.Mutex
	lines  chan lineOrErr
	closed chan struct{}
	once   sync.Once
}

// readLines sends each line of input to Read until the input ends.
func (c *lineConn) readLines() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	for {
		var line []byte
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong && len(line)+len(chunk) > maxLine {
				tooLong, line = true, nil
			} else if !tooLong {
				line = append(line, chunk...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if tooLong {
			line = []byte(" too long") // answered below, not decoded
		}
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case c.lines <- lineOrErr{data: line}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			select {
			case c.lines <- lineOrErr{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// Read returns the next valid message; an invalid one is answered here.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var l lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			return nil, l.err
		}
		data := bytes.TrimSpace(l.data)
		if string(data) == "too long" {
			c.answerError(jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: message longer than %d bytes", maxLine))
			continue
		}
		if len(data) > 0 && data[0] == '[' {
			c.answerError(jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported: send one message a line")
			continue
		}
		if !json.Valid(data) {
			var v any
			err := json.Unmarshal(data, &v)
			msg := "invalid JSON"
			if err != nil {
				msg = err.Error()
			}
			c.answerError(jsonrpc.CodeParseError, "parse error: "+msg)
			continue
		}
		msg, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			c.answerError(jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
			continue
		}
		return msg, nil
	}
}

// answerError writes an error response with a null id (the request's id
// could not be read).
func (c *lineConn) answerError(code int64, message string) {
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": message}})
	c.writeLine(data)
}

func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return errors.New("the connection is closed")
	default:
	}
	_, err := c.w.Write(append(data, '\n'))
	return err
}

func (c *lineConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.r.Close()
	})
	return nil
}

func (c *lineConn) SessionID() string { return "" }
