// Package confine keeps the files steps write and read inside the
// directories they are allowed: capture outputs (screenshots, PDFs, HAR)
// inside the output directory, uploads and route bodies inside the
// working directory or CDP_SKILL_UPLOAD_DIRS, downloads copied into the
// output directory under a safe name. Symbolic links, hard links, hidden
// names and paths swapped while a file is written are refused.
package confine

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// OutputDirEnv names the environment variable that sets the directory
// screenshots and PDFs an agent names are written under (default: the
// working directory). The runtime reads it and passes the directory down
// (OutputFile.Dir); package browser reads no environment.
const OutputDirEnv = "CDP_SKILL_OUTPUT_DIR"

// OutputFile says where a capture step writes its file.
type OutputFile struct {
	// Path is what the agent gave ("" = a unique file in the state dir).
	Path string
	// Dir is the output directory ("" = the working directory).
	Dir string
	// Kind names the step in messages and the state subdirectory
	// (screenshot → screenshots/, pdf → pdfs/).
	Kind string
	// Ext is the extension added to a name that has none (".png").
	Ext string
	// Exts are the extensions (lower case, with the dot) a name may end
	// in; a name with another extension is refused, so that a capture
	// cannot replace a source file. Empty allows Ext only.
	Exts []string
}

// OutputTarget is a capture file that is about to be written: its
// directory is held open (an os.Root), so that what happens to the paths
// meanwhile (a directory swapped for a symbolic link while a slow PDF
// renders) cannot move the file outside the output directory.
type OutputTarget struct {
	// Path is the absolute path the answer reports.
	Path   string
	kind   string
	root   *os.Root
	rel    string
	shown  string
	outDir string
}

// Write writes data to the target atomically (a new file made with
// O_EXCL, renamed over the name): a symbolic or hard link at the name is
// replaced, never written through, and a directory that now leads outside
// the output directory refuses the write.
func (t *OutputTarget) Write(data []byte) error {
	err := state.WriteIn(t.root, t.rel, data, 0o600)
	if err == nil {
		return nil
	}
	if strings.Contains(err.Error(), "escapes from parent") || errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR) {
		return failure.Errorf(failure.KindStepValidation, "%s refused: %q changed while it was captured and now leads outside the output directory %s; nothing was written", t.kind, t.shown, t.outDir).
			WithHint("make sure nothing replaces the directories under the output directory with symbolic links, then capture again")
	}
	return fmt.Errorf("%s: write %s: %w", t.kind, t.Path, err)
}

// Close releases the directory the target holds.
// OpenRead opens the target's file for reading inside its held
// directory, refusing a symbolic link at its name.
func (t *OutputTarget) OpenRead() (*os.File, error) {
	return t.root.OpenFile(t.rel, os.O_RDONLY|oNoFollow, 0)
}

func (t *OutputTarget) Close() { t.root.Close() }

// Open checks where a capture step may write its file and holds that
// directory open for OutputTarget.Write, creating the directories between.
// A relative path lies in the output directory; a path that leads outside
// it (by .., an absolute path, or a symbolic link) is refused before
// anything is written. A path naming a directory (or ending in a
// separator) gets a unique file name inside it, and a name without
// extension gets Ext. A name whose extension is not one of Exts, or a path
// through a hidden file or directory (a name starting with a dot, such as
// .git), is refused too.
func (o OutputFile) Open() (*OutputTarget, error) {
	if o.Path == "" {
		return o.stateFile()
	}
	if strings.TrimSpace(o.Path) == "" {
		return nil, failure.Errorf(failure.KindStepValidation, "%s: path is empty", o.Kind).WithHint("give a file name such as %q, or leave path out to write to the state dir", "page"+o.Ext)
	}
	dir, err := o.dir()
	if err != nil {
		return nil, err
	}
	target := o.Path
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir.abs, target)
	}
	target = filepath.Clean(target)
	if strings.HasSuffix(o.Path, "/") || strings.HasSuffix(o.Path, string(filepath.Separator)) || isDirPath(target) {
		target = filepath.Join(target, uniqueFileName(o.Kind, o.Ext))
	}
	if filepath.Ext(target) == "" {
		target += o.Ext
	}
	real, err := dir.confine(o, target)
	if err != nil {
		return nil, err
	}
	if err := o.checkName(dir.abs, target); err != nil {
		return nil, err
	}
	if err := o.checkName(dir.real, real); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(dir.real, real)
	if err != nil {
		return nil, dir.refused(o, true)
	}
	root, err := os.OpenRoot(dir.real)
	if err != nil {
		return nil, fmt.Errorf("%s: open the output dir: %w", o.Kind, err)
	}
	if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		root.Close()
		if strings.Contains(err.Error(), "escapes from parent") {
			return nil, dir.refused(o, true)
		}
		return nil, fmt.Errorf("%s: create the directory of %s: %w", o.Kind, target, err)
	}
	return &OutputTarget{Path: target, kind: o.Kind, root: root, rel: rel, shown: o.Path, outDir: dir.abs}, nil
}

// stateFile returns a unique file in the state dir.
func (o OutputFile) stateFile() (*OutputTarget, error) {
	root, err := state.OpenRoot()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Kind, err)
	}
	rel := filepath.Join(o.Kind+"s", uniqueFileName(o.Kind, o.Ext))
	if err := root.MkdirAll(filepath.Dir(rel), 0o700); err != nil {
		root.Close()
		return nil, fmt.Errorf("%s: create %s in the state dir: %w", o.Kind, filepath.Dir(rel), err)
	}
	abs, err := filepath.Abs(filepath.Join(state.Dir(), rel))
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("%s: %w", o.Kind, err)
	}
	return &OutputTarget{Path: abs, kind: o.Kind, root: root, rel: rel, shown: rel, outDir: state.Dir()}, nil
}

// outputDir is the output directory as written and with its symbolic
// links resolved.
type outputDir struct {
	abs, real string
}

func (o OutputFile) dir() (outputDir, error) {
	d := o.Dir
	if d == "" {
		var err error
		if d, err = os.Getwd(); err != nil {
			return outputDir{}, fmt.Errorf("%s: output dir: %w", o.Kind, err)
		}
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return outputDir{}, fmt.Errorf("%s: output dir %q: %w", o.Kind, d, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return outputDir{}, fmt.Errorf("%s: create the output dir: %w", o.Kind, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return outputDir{}, fmt.Errorf("%s: output dir %q: %w", o.Kind, abs, err)
	}
	return outputDir{abs: abs, real: real}, nil
}

// confine refuses target unless it lies inside the output directory both
// as written and once the symbolic links of its existing part are
// resolved, and returns the resolved path.
func (d outputDir) confine(o OutputFile, target string) (string, error) {
	if !InsideAny(target, []string{d.abs, d.real}) {
		return "", d.refused(o, false)
	}
	real, err := resolveExisting(target)
	if errors.Is(err, errDanglingLink) {
		return "", d.refused(o, true)
	}
	if err != nil {
		return "", fmt.Errorf("%s: resolve %s: %w", o.Kind, target, err)
	}
	if !InsideAny(real, []string{d.real}) {
		return "", d.refused(o, true)
	}
	if info, err := os.Stat(real); err == nil && info.IsDir() {
		return "", failure.Errorf(failure.KindStepValidation, "%s: %q is a directory", o.Kind, o.Path)
	}
	return real, nil
}

// checkName refuses path (inside dir, either the output directory as
// written or resolved) when a component below dir is hidden or the file's
// extension is not one of the kind's.
func (o OutputFile) checkName(dir, path string) error {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !InsideAny(path, []string{dir}) {
		// path lies in the other form of the output directory.
		return nil
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.HasPrefix(part, ".") {
			return failure.Errorf(failure.KindStepValidation, "%s refused: %q contains the hidden name %q; captures are not written to hidden files or directories such as .git", o.Kind, o.Path, part).
				WithHint("give a name that does not start with a dot, such as %q", "shots/page"+o.Ext)
		}
	}
	exts := o.Exts
	if len(exts) == 0 {
		exts = []string{o.Ext}
	}
	if ext := strings.ToLower(filepath.Ext(path)); !slices.Contains(exts, ext) {
		return failure.Errorf(failure.KindStepValidation, "%s refused: %q ends in %s; a %s file must end in %s", o.Kind, o.Path, ext, o.Kind, orList(exts)).
			WithHint("name it like %q, or give a name without extension and %s is added", "page"+o.Ext, o.Ext)
	}
	return nil
}

// orList is "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func (d outputDir) refused(o OutputFile, link bool) error {
	how := "is outside"
	if link {
		how = "leads through a symbolic link outside"
	}
	return failure.Errorf(failure.KindStepValidation, "%s refused: %q %s the output directory %s", o.Kind, o.Path, how, d.abs).
		WithHint("give a path inside it (a relative path such as %q is resolved there), leave path out to write to the state dir, or set the environment variable %s to the directory files should go to",
			"shots/page"+o.Ext, OutputDirEnv)
}

// errDanglingLink marks a path through a symbolic link to nothing: writing
// there would create the link's target, wherever it points.
var errDanglingLink = errors.New("dangling symbolic link")

// resolveExisting resolves the symbolic links of the longest existing
// prefix of path and appends the rest.
func resolveExisting(path string) (string, error) {
	rest := ""
	cur := path
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if _, lerr := os.Lstat(cur); lerr == nil {
			return "", errDanglingLink
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return path, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func isDirPath(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// uniqueFileName is kind-<time>-<random><ext>.
func uniqueFileName(kind, ext string) string {
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s-%s-%s%s", kind, time.Now().Format("20060102-150405.000"), hex.EncodeToString(b[:]), ext)
}
