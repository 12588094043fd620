//go:build unix

package browser

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUploadAndRouteRefuseAFIFO (issue 31, item 7): a FIFO in an allowed
// directory is refused as not a regular file at once, by upload and by a
// route's file, instead of blocking in open() until someone writes to it
// (which wedged the tab for every later command).
func TestUploadAndRouteRefuseAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	go func() {
		_, err := CheckUploadFiles([]string{fifo}, []string{dir})
		done <- err
	}()
	go func() {
		_, _, err := ReadRouteFile(fifo, []string{dir})
		done <- err
	}()
	for range 2 {
		select {
		case err := <-done:
			if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "not a regular file") {
				t.Fatalf("a FIFO: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("opening a FIFO blocked (hang detector; nothing writes to it)")
		}
	}
}
