package state

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// OverwriteFile writes a plain file in place (same inode, the old tail
// cut off) and replaces anything else without writing through it: a
// symbolic link's target, another hard link's content and a FIFO's reader
// are left alone, and nothing waits.
func TestOverwriteFile(t *testing.T) {
	dir := t.TempDir()
	previous := SetDir(dir)
	t.Cleanup(func() { SetDir(previous) })
	outside := filepath.Join(t.TempDir(), "precious")
	for _, c := range []struct {
		name  string
		setup func(path string)
		// inPlace says the file keeps its inode.
		inPlace bool
	}{
		{"missing", func(string) {}, false},
		{"plain", func(p string) { os.WriteFile(p, []byte("an older and longer snapshot\n"), 0o600) }, true},
		{"symlink", func(p string) { os.WriteFile(outside, []byte("keep"), 0o600); os.Symlink(outside, p) }, false},
		{"hardlink", func(p string) { os.WriteFile(outside, []byte("keep"), 0o600); os.Link(outside, p) }, false},
		{"fifo", func(p string) { syscall.Mkfifo(p, 0o600) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(outside)
			rel := filepath.Join("snapshots", c.name+".after.yaml")
			path := filepath.Join(dir, rel)
			os.MkdirAll(filepath.Dir(path), 0o700)
			c.setup(path)
			before, _ := os.Lstat(path)
			done := make(chan error, 1)
			var got string
			go func() {
				var err error
				got, err = OverwriteFile([]byte("- button \"Save\"\n"), "snapshots", c.name+".after.yaml")
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("OverwriteFile hangs")
			}
			if got != path {
				t.Errorf("path %s, want %s", got, path)
			}
			if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
				t.Fatalf("%s is not a regular file now: %v %v", path, st, err)
			}
			data, err := os.ReadFile(path)
			if err != nil || string(data) != "- button \"Save\"\n" {
				t.Errorf("file holds %q (%v)", data, err)
			}
			after, _ := os.Lstat(path)
			if same := before != nil && os.SameFile(before, after); same != c.inPlace {
				t.Errorf("written in place: %v, want %v", same, c.inPlace)
			}
			if keep, err := os.ReadFile(outside); err == nil && string(keep) != "keep" {
				t.Errorf("written through the link: %s holds %q", outside, keep)
			}
		})
	}
}
