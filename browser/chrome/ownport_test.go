//go:build linux

package chrome

import (
	"net"
	"os"
	"testing"
)

func TestOwnsPortNamesTheProcessHoldingIt(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	if !ownsPort(os.Getpid(), port) {
		t.Errorf("this process holds port %d but ownsPort says no", port)
	}
	if ownsPort(os.Getppid(), port) {
		t.Errorf("the parent process does not hold port %d", port)
	}
	if err := portFree(port); err == nil {
		t.Errorf("portFree(%d) while it is held", port)
	}
	ln.Close()
	if err := portFree(port); err != nil {
		t.Errorf("portFree after close: %v", err)
	}
}
