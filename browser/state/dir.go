// Package state keeps what cdp-skill remembers between invocations: the tab
// registry, the Chrome endpoints it launched or found, and per-tab data such as
// ref counters. Every write is atomic (write to a temporary file, then rename)
// and every read-modify-write runs under a file lock, so parallel agents cannot
// corrupt it.
package state

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// EnvDir names the environment variable that overrides the state directory.
// Package state reads no variable: the command reads this one and calls
// SetDir.
const EnvDir = "CDP_SKILL_STATE_DIR"

// dirs are the directories the process set (SetDir, SetSitesDir); "" means
// the default.
var dirs struct {
	sync.RWMutex
	state, sites string
	// runtime is the user's runtime directory ($XDG_RUNTIME_DIR), under
	// which the default state dir lives (SetRuntimeDir).
	runtime string
}

// SetDir sets the state directory for the whole process ("" restores the
// default) and returns the previous setting, so a test can put it back.
func SetDir(dir string) (previous string) {
	dirs.Lock()
	defer dirs.Unlock()
	previous, dirs.state = dirs.state, dir
	return previous
}

// SetRuntimeDir sets the user's runtime directory ($XDG_RUNTIME_DIR, read
// by the command: this package reads no environment), under which the
// default state dir lives; "" or a relative path means none. It returns
// the previous setting.
func SetRuntimeDir(dir string) (previous string) {
	dirs.Lock()
	defer dirs.Unlock()
	previous, dirs.runtime = dirs.runtime, dir
	return previous
}

// runtimeDir is the directory SetRuntimeDir set.
func runtimeDir() string {
	dirs.RLock()
	defer dirs.RUnlock()
	return dirs.runtime
}

// Dir returns the state directory: the one set with SetDir
// ($CDP_SKILL_STATE_DIR), otherwise a directory of the current user's
// ($XDG_RUNTIME_DIR/cdp-skill, or $TMPDIR/cdp-skill-<uid>). It does not
// create it (Ensure does).
func Dir() string {
	dirs.RLock()
	d := dirs.state
	dirs.RUnlock()
	if d != "" {
		return d
	}
	return defaultDir()
}

// Path joins elem onto the state directory and makes sure the parent
// directory of the result exists and that only the current user controls
// it and the directories above it up to the state dir (ErrUnsafeDir).
func Path(elem ...string) (string, error) {
	rel := filepath.Join(elem...)
	if err := ensureSubdirs(filepath.Dir(rel)); err != nil {
		return "", err
	}
	return filepath.Join(Dir(), rel), nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so a reader sees either the old or the new content,
// never a torn file. A symbolic or hard link at path is replaced, not
// written through (see WriteIn).
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer root.Close()
	if err := WriteIn(root, filepath.Base(path), data, perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Lock takes an exclusive file lock on path (created if missing), waiting
// until ctx ends. The returned func releases it.
func Lock(ctx context.Context, path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	fl := flock.New(path)
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s: not acquired", path)
	}
	return func() { fl.Unlock() }, nil
}
