package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// UploadDirsEnv names the environment variable listing directories (besides
// the working directory) that upload may read files from, separated by
// os.PathListSeparator.
const UploadDirsEnv = "CDP_SKILL_UPLOAD_DIRS"

// OrWorkingDir returns dirs, or the working directory when dirs is nil
// (the caller gave no allowed directories of its own).
func OrWorkingDir(dirs []string) ([]string, error) {
	if dirs != nil {
		return dirs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return []string{wd}, nil
}

// CheckUploadFiles resolves the paths of files to upload and makes sure
// each one exists, is a regular file, and lies inside one of dirs once
// symbolic links are resolved, has one link, and copies each into the
// state dir. It returns the paths of those copies, which Chrome reads.
func CheckUploadFiles(files []string, dirs []string) ([]string, error) {
	if len(files) == 0 {
		return nil, failure.Errorf(failure.KindStepValidation, "no file given").WithHint(`give files: "/path/a.txt" or ["a.txt", "b.png"]`)
	}
	var raw, resolved []string
	for _, d := range dirs {
		raw = append(raw, filepath.Clean(d))
		if r, err := filepath.EvalSymlinks(d); err == nil {
			resolved = append(resolved, r)
		}
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		p, err := checkUploadFile(f, raw, resolved)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// checkUploadFile checks one path against the allowed directories: first
// as written (so that nothing is said about files elsewhere), then with
// its symbolic links resolved.
func checkUploadFile(f string, raw, resolved []string) (string, error) {
	if strings.TrimSpace(f) == "" {
		return "", failure.Errorf(failure.KindStepValidation, "an empty file path was given")
	}
	abs, err := filepath.Abs(f)
	if err != nil {
		return "", fmt.Errorf("upload %q: %w", f, err)
	}
	if !InsideAny(abs, raw) && !InsideAny(abs, resolved) {
		return "", refused(f, raw, false)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", failure.Errorf(failure.KindStepValidation, "file %q does not exist", f).WithHint("paths are relative to the working directory of cdp-skill")
	}
	if err != nil {
		return "", failure.Errorf(failure.KindStepValidation, "file %q cannot be read: %v", f, err)
	}
	if !InsideAny(real, resolved) {
		return "", refused(f, raw, true)
	}
	file, err := openInside(real, resolved)
	if err != nil {
		return "", failure.Errorf(failure.KindStepValidation, "file %q cannot be read inside the allowed directories: %v", f, err).
			WithHint("a path may have changed while it was checked; give the file again")
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return "", failure.Errorf(failure.KindStepValidation, "file %q cannot be read: %v", f, err)
	}
	if !info.Mode().IsRegular() {
		return "", failure.Errorf(failure.KindStepValidation, "%q is not a regular file", f).WithHint("give the path of a file, not of a directory or device")
	}
	if n := state.Links(info); n > 1 {
		return "", failure.Errorf(failure.KindStepValidation, "upload refused: %q has %d hard links, and a hard link can make a file from outside the allowed directories look like one inside", f, n).
			WithHint("copy the file into the allowed directory (cp, not ln) and upload the copy")
	}
	return stageUpload(file, filepath.Base(real))
}

// openInside opens real (a resolved path inside one of dirs) through an
// os.Root at that directory, so a symbolic link swapped in after the check
// cannot lead outside it, without waiting (a FIFO opens at once).
func openInside(real string, dirs []string) (*os.File, error) {
	var last error = fs.ErrNotExist
	for _, d := range dirs {
		if !InsideAny(real, []string{d}) {
			continue
		}
		rel, err := filepath.Rel(d, real)
		if err != nil {
			continue
		}
		root, err := os.OpenRoot(d)
		if err != nil {
			last = err
			continue
		}
		// Non-blocking: a FIFO would otherwise hold the open (and the tab)
		// until someone writes to it; it is refused once open.
		f, err := root.OpenFile(rel, os.O_RDONLY|oNonblock, 0)
		root.Close()
		if err == nil {
			return f, nil
		}
		last = err
	}
	return nil, last
}

// uploadStageAge is how long staged copies of uploaded files are kept (the
// page may read a file long after it was chosen).
const uploadStageAge = 24 * time.Hour

// stageUpload copies an opened upload into a directory of its own under
// the state dir (only cdp-skill writes there) and returns the copy's path,
// which is what Chrome reads: the file the page gets is the one that was
// checked, whatever happens to the original's path afterwards.
func stageUpload(f *os.File, name string) (string, error) {
	root, err := state.OpenRoot()
	if err != nil {
		return "", fmt.Errorf("upload: %w", err)
	}
	defer root.Close()
	pruneStaged(root)
	rel := filepath.Join("uploads", uniqueFileName("upload", ""), name)
	if err := root.MkdirAll(filepath.Dir(rel), 0o700); err != nil {
		return "", fmt.Errorf("upload: stage %s: %w", name, err)
	}
	if err := state.CopyIn(root, rel, f, 0o600); err != nil {
		return "", fmt.Errorf("upload: stage %s: %w", name, err)
	}
	return filepath.Abs(filepath.Join(state.Dir(), rel))
}

// pruneStaged removes staged uploads older than uploadStageAge.
func pruneStaged(root *os.Root) {
	dir, err := root.Open("uploads")
	if err != nil {
		return
	}
	defer dir.Close()
	entries, _ := dir.ReadDir(-1)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > uploadStageAge {
			root.RemoveAll(filepath.Join("uploads", e.Name()))
		}
	}
}

func refused(f string, dirs []string, link bool) error {
	how := "is outside"
	if link {
		how = "is a symbolic link to a file outside"
	}
	return failure.Errorf(failure.KindStepValidation, "upload refused: %q %s the allowed directories (%s)", f, how, strings.Join(dirs, ", ")).
		WithHint("run cdp-skill from a directory that contains the file, or add the file's directory to the environment variable %s (a list separated by %q)", UploadDirsEnv, string(os.PathListSeparator))
}

// InsideAny reports whether path is one of dirs or below one of them.
func InsideAny(path string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool {
		rel, err := filepath.Rel(d, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
	})
}
