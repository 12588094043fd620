package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeHandler serves test methods: "big" answers a large result once
// released, "wait" answers when its call is cancelled, "panic" panics.
type fakeHandler struct{ release chan struct{} }

func (f *fakeHandler) handle(ctx context.Context, req *rpcRequest) (any, error) {
	switch req.Method {
	case "big":
		<-f.release
		return map[string]string{"id": string(req.ID), "pad": strings.Repeat("x", 100<<10)}, nil
	case "wait":
		<-ctx.Done()
		return "cancelled", nil
	case "now":
		return "now", nil
	case "panic":
		panic("boom")
	}
	return nil, rpcErrorf(rpcMethodNotFound, "no %s", req.Method)
}

func (f *fakeHandler) inOrder(string) bool   { return false }
func (f *fakeHandler) batchError() *rpcError { return nil }

// pipeConn serves an rpcConn in process: send writes lines to it, answer
// reads its answers; done is closed with serve's error when it returns.
type pipeConn struct {
	in    *io.PipeWriter
	out   *bufio.Reader
	done  chan error
	conn  *rpcConn
	panic bytes.Buffer
}

func startPipeConn(t *testing.T, h rpcHandler) *pipeConn {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipeConn{in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	p.conn = newRPCConn(h, outW)
	p.conn.stderr = &p.panic
	go func() { p.done <- p.conn.serve(context.Background(), inR); outW.Close() }()
	t.Cleanup(func() { inW.Close(); io.Copy(io.Discard, outR) })
	return p
}

func (p *pipeConn) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (p *pipeConn) answer(t *testing.T) rawAnswer {
	t.Helper()
	line, err := p.out.ReadString('\n')
	var a rawAnswer
	if err != nil || json.Unmarshal([]byte(line), &a) != nil {
		t.Fatalf("read an answer: %v: %.200q", err, line)
	}
	return a
}

// TestRPCConnConcurrentAnswersAreWholeLines: answers finished at the same
// moment are written one whole line each, never interleaved.
func TestRPCConnConcurrentAnswersAreWholeLines(t *testing.T) {
	h := &fakeHandler{release: make(chan struct{})}
	p := startPipeConn(t, h)
	const n = 40
	for i := range n {
		p.send(t, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"big"}`)
	}
	p.send(t, `{"jsonrpc":"2.0","id":"sync","method":"now"}`)
	checkAnswer(t, p.answer(t), wantAnswer{`"sync"`, 0, "now"}) // all n are taken and running
	close(h.release)
	seen := map[string]bool{}
	for range n {
		a := p.answer(t)
		var res map[string]string
		if err := json.Unmarshal(a.Result, &res); err != nil || res["id"] != string(a.ID) || len(res["pad"]) != 100<<10 {
			t.Fatalf("answer %s garbled: %v", a.ID, err)
		}
		if seen[string(a.ID)] {
			t.Fatalf("id %s answered twice", a.ID)
		}
		seen[string(a.ID)] = true
	}
}

// TestRPCConnPanicFailsOnlyItsRequest: a handler's panic answers its
// request with an internal error and is told on stderr; the server goes on.
func TestRPCConnPanicFailsOnlyItsRequest(t *testing.T) {
	p := startPipeConn(t, &fakeHandler{})
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"panic"}`)
	checkAnswer(t, p.answer(t), wantAnswer{"1", rpcInternalError, "boom"})
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"now"}`)
	checkAnswer(t, p.answer(t), wantAnswer{"2", 0, "now"})
	if !strings.Contains(p.panic.String(), "boom") || !strings.Contains(p.panic.String(), "goroutine") {
		t.Errorf("the panic and its stack are not on stderr: %q", p.panic.String())
	}
}

// TestRPCConnEndOfInputCancelsCalls: when the input ends, running calls
// are cancelled, answer, and serve returns once they have.
func TestRPCConnEndOfInputCancelsCalls(t *testing.T) {
	p := startPipeConn(t, &fakeHandler{})
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"wait"}`)
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"now"}`)
	checkAnswer(t, p.answer(t), wantAnswer{"2", 0, "now"})
	p.in.Close()
	checkAnswer(t, p.answer(t), wantAnswer{"1", 0, "cancelled"})
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not return after the input ended")
	}
}

// TestRPCConnReadError: a failing input ends serve with the read error.
func TestRPCConnReadError(t *testing.T) {
	h := &fakeHandler{}
	c := newRPCConn(h, io.Discard)
	boom := errors.New("disk on fire")
	err := c.serve(context.Background(), io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"now"}`+"\n"), &failReader{boom}))
	if !errors.Is(err, boom) {
		t.Fatalf("serve = %v, want the read error", err)
	}
}

type failReader struct{ err error }

func (f *failReader) Read([]byte) (int, error) { return 0, f.err }
