//go:build unix

package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ownerChecked says this system has file owners and modes to check.
const ownerChecked = true

// ownedByMe fails when info (of path) is not owned by the current user.
func ownedByMe(path string, info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("%w: %s belongs to user %d, not to you (user %d): it may hold files another user planted (a Chrome profile, tab records); remove it, or set %s to a directory only you own (mode 0700)", ErrUnsafeDir, path, st.Uid, uid, EnvDir)
	}
	return nil
}

// defaultDir is the per-user state dir: $XDG_RUNTIME_DIR/cdp-skill (a
// directory only the user can reach; SetRuntimeDir passes it in) when
// that is set, else $TMPDIR/cdp-skill-<uid>.
func defaultDir() string {
	if x := runtimeDir(); filepath.IsAbs(x) {
		return filepath.Join(x, "cdp-skill")
	}
	return filepath.Join(os.TempDir(), "cdp-skill-"+strconv.Itoa(os.Getuid()))
}
