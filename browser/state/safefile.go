package state

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteIn writes data to name, a path relative to root, atomically: into
// a new file created beside it with O_EXCL, then renamed over name. Every
// step goes through root, so a directory swapped for a symbolic link that
// leads outside it makes the write fail, and an existing name that is a
// symbolic link or a hard link to another file is replaced, never written
// through.
func WriteIn(root *os.Root, name string, data []byte, perm os.FileMode) error {
	return writeIn(root, name, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// CopyIn copies r to name inside root as WriteIn writes.
func CopyIn(root *os.Root, name string, r io.Reader, perm os.FileMode) error {
	return writeIn(root, name, perm, func(w io.Writer) error {
		_, err := io.Copy(w, r)
		return err
	})
}

func writeIn(root *os.Root, name string, perm os.FileMode, fill func(io.Writer) error) error {
	dir, base := filepath.Split(name)
	var f *os.File
	var tmp string
	for range 5 {
		tmp = filepath.Join(dir, "."+base+".tmp"+randomHex(6))
		var err error
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	if f == nil {
		return fmt.Errorf("create a temporary file beside %s: names taken", name)
	}
	werr := fill(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil && perm != 0o600 {
		werr = root.Chmod(tmp, perm)
	}
	if werr == nil {
		werr = root.Rename(tmp, name)
	}
	if werr != nil {
		root.Remove(tmp)
		return werr
	}
	return nil
}

// WriteFile writes data under the state dir at the path joined from elem
// (made with its directories as needed) through WriteIn, and returns the
// absolute path.
func WriteFile(data []byte, elem ...string) (string, error) {
	root, err := OpenRoot()
	if err != nil {
		return "", err
	}
	defer root.Close()
	rel := filepath.Join(elem...)
	if err := root.MkdirAll(filepath.Dir(rel), 0o700); err != nil {
		return "", fmt.Errorf("create %s in the state dir: %w", filepath.Dir(rel), err)
	}
	if err := WriteIn(root, rel, data, 0o600); err != nil {
		return "", fmt.Errorf("write %s in the state dir: %w", rel, err)
	}
	return absJoin(Dir(), rel), nil
}

// OpenRoot opens the state dir (created if missing, and checked: Ensure)
// as an os.Root.
func OpenRoot() (*os.Root, error) {
	if err := Ensure(); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(Dir())
	if err != nil {
		return nil, fmt.Errorf("open state dir: %w", err)
	}
	return root, nil
}

// readFileNoEscape reads path through a root at its directory: a file that
// is a symbolic link out of that directory is not followed.
func readFileNoEscape(path string) ([]byte, error) {
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.ReadFile(filepath.Base(path))
}

// Links returns the number of hard links of an open file (1 when the
// system does not say).
func Links(info fs.FileInfo) uint64 {
	if n := links(info); n > 0 {
		return n
	}
	return 1
}

func absJoin(dir, rel string) string {
	p := filepath.Join(dir, rel)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
