package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrUnsafeDir is wrapped by errors for a state directory (or a directory
// in it, or a Chrome profile) that someone other than the current user
// could have planted or could change: it is refused, as ssh refuses a
// ~/.ssh that others can write.
var ErrUnsafeDir = errors.New("unsafe state directory")

// checked are the directories found safe in this process (they are checked
// once; a directory only its owner controls stays that way).
var checked sync.Map

// Ensure creates the state directory if it is missing (mode 0700) and
// checks that only the current user controls it.
func Ensure() error {
	return ensureDir(Dir())
}

// ensureDir creates dir (mode 0700) when missing and checks it.
func ensureDir(dir string) error {
	if _, ok := checked.Load(dir); ok {
		return nil
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create state dir: %w", err)
		}
	}
	if err := CheckPrivateDir(dir); err != nil {
		return err
	}
	checked.Store(dir, true)
	return nil
}

// ensureSubdirs creates the directories of rel (a path relative to the
// state dir, its last element a directory) and checks each one: a
// symbolic link or a directory someone else controls inside the state
// dir (a planted locks -> /elsewhere) is refused.
func ensureSubdirs(rel string) error {
	if err := Ensure(); err != nil {
		return err
	}
	dir := Dir()
	for _, part := range strings.Split(filepath.Clean(rel), string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		if part == ".." {
			return fmt.Errorf("%w: %q leaves the state dir", ErrUnsafeDir, rel)
		}
		dir = filepath.Join(dir, part)
		if _, ok := checked.Load(dir); ok {
			continue
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create %s: %w", dir, err)
		}
		if err := checkOwned(dir, false); err != nil {
			return err
		}
		checked.Store(dir, true)
	}
	return nil
}

// EnsureSubdir creates the directory rel inside the state dir (and the
// ones above it) when missing, checks each like the state dir itself, and
// returns its path: a Chrome profile, the locks directory.
func EnsureSubdir(rel string) (string, error) {
	if err := ensureSubdirs(rel); err != nil {
		return "", err
	}
	return filepath.Join(Dir(), rel), nil
}

// CheckPrivateDir checks that dir is a directory that the current user
// owns and no one else can write (a symbolic link to one is accepted when
// the link is the user's too). The error says what to do.
func CheckPrivateDir(dir string) error {
	return checkOwned(dir, true)
}

// checkOwned checks dir; a symbolic link is followed when followLink is
// set (a state dir the user configured), refused otherwise.
func checkOwned(dir string, followLink bool) error {
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	if info.Mode()&os.ModeSymlink != 0 {
		if !followLink {
			return fmt.Errorf("%w: %s is a symbolic link, and nothing in the state dir may be one; remove it", ErrUnsafeDir, dir)
		}
		if err := ownedByMe(dir, info); err != nil {
			return err
		}
		if info, err = os.Stat(dir); err != nil {
			return fmt.Errorf("state dir: %w", err)
		}
	}
	if !info.IsDir() {
		return fmt.Errorf("%w: %s is not a directory; remove it or set %s to a directory only you can write", ErrUnsafeDir, dir, EnvDir)
	}
	if err := ownedByMe(dir, info); err != nil {
		return err
	}
	if info.Mode().Perm()&0o022 != 0 && ownerChecked {
		return fmt.Errorf("%w: %s can be written by other users (mode %04o), who could plant files in it; run chmod 700 %s, or set %s to a directory only you can write", ErrUnsafeDir, dir, info.Mode().Perm(), dir, EnvDir)
	}
	return nil
}
