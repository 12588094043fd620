//go:build unix

package mcpserver

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunRecipeRefusesAFIFO (issue 31, item 7): run_recipe's path naming a
// named pipe is refused at once, instead of blocking the server's call in
// open() until something writes to it; a device (/dev/zero) is refused
// instead of read without end.
func TestRunRecipeRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.star")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{{fifo, "is a named pipe (FIFO)"}, {"/dev/zero", "is a device"}} {
		done := make(chan error, 1)
		go func() {
			_, err := recipeProgram(map[string]any{"path": tc.path})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run_recipe %s: %v", tc.path, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("run_recipe %s blocked (hang detector: nothing writes to it)", tc.path)
		}
	}
}
