package cmd

import (
	"bytes"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// TestResidentRefusesAnEndlessRequestLine (issue 31, item 8): a client
// that sends a request line with no end is cut off once the line passes
// maxRequestLine; the resident does not read (and hold) all of it.
func TestResidentRefusesAnEndlessRequestLine(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	s := &residentServer{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		conn, err := ln.AcceptUnix()
		if err != nil {
			return
		}
		s.wg.Add(1)
		s.handle(conn)
	}()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	const limit = 3 * maxRequestLine
	sent := 0
	for sent < limit {
		c.SetWriteDeadline(time.Now().Add(30 * time.Second))
		n, err := c.Write(chunk)
		sent += n
		if err != nil {
			break
		}
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the resident is still reading the request")
	}
	if sent >= limit {
		t.Fatalf("the resident read %d MiB of one request line (the bound is %d MiB)", sent>>20, maxRequestLine>>20)
	}
}
