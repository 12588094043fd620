package cmd

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSocketLock: one holder at a time; release removes the lock file; a
// holder whose file was removed under it does not stop a new holder of the
// file now at the path; removeStale leaves a held socket alone.
func TestSocketLock(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "x.sock")
	l, ok := lockSocket(sock)
	if !ok {
		t.Fatal("first lock refused")
	}
	if _, ok := lockSocket(sock); ok {
		t.Fatal("a second holder got the lock")
	}
	os.WriteFile(sock, nil, 0o600)
	removeStale(sock)
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("removeStale removed a held socket: %v", err)
	}
	l.release()
	if _, err := os.Stat(sock + ".lock"); !os.IsNotExist(err) {
		t.Fatalf("release left the lock file: %v", err)
	}
	old, ok := lockSocket(sock)
	if !ok {
		t.Fatal("lock after release refused")
	}
	os.Remove(sock + ".lock") // as a holder ending would, but still held
	again, ok := lockSocket(sock)
	if !ok {
		t.Fatal("the file now at the path could not be locked")
	}
	again.release()
	old.Close()
	removeStale(sock)
	if left, _ := filepath.Glob(sock + "*"); len(left) != 0 {
		t.Fatalf("removeStale left %v", left)
	}
}
