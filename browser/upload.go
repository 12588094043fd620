package browser

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// UploadDirsEnv names the environment variable listing directories (besides
// the working directory) that upload may read files from, separated by
// os.PathListSeparator.
const UploadDirsEnv = "CDP_SKILL_UPLOAD_DIRS"

// FileChooserTimeout bounds the wait for the file chooser a clicked element
// opens.
const FileChooserTimeout = 2 * time.Second

// UploadOptions tune Upload.
type UploadOptions struct {
	ActionOptions
	// AllowedDirs are the directories files may come from; nil means the
	// working directory. (The caller adds those of CDP_SKILL_UPLOAD_DIRS:
	// package browser reads no environment.)
	AllowedDirs []string
}

// UploadResult is the outcome of Upload.
type UploadResult struct {
	// Uploaded are the names (not paths) of the files the page sees.
	Uploaded []string `json:"uploaded"`
	Count    int      `json:"count"`
	// Via is input (the file input was set directly) or chooser (the
	// target was clicked and the file chooser it opened was answered).
	Via string `json:"via"`
	TargetReport
	Effect
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// fileState is the engine's answer to fileState.
type fileState struct {
	Count    int      `json:"count"`
	Names    []string `json:"names"`
	Multiple bool     `json:"multiple"`
	Disabled bool     `json:"disabled"`
	// Seen are the names the input held at its last input or change event
	// (a page may clear the input once it has read the files).
	Seen []string `json:"seen"`
}

// orWorkingDir returns dirs, or the working directory when dirs is nil
// (the caller gave no allowed directories of its own).
func orWorkingDir(dirs []string) ([]string, error) {
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
		return nil, Errorf(KindStepValidation, "no file given").WithHint(`give files: "/path/a.txt" or ["a.txt", "b.png"]`)
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
		return "", Errorf(KindStepValidation, "an empty file path was given")
	}
	abs, err := filepath.Abs(f)
	if err != nil {
		return "", fmt.Errorf("upload %q: %w", f, err)
	}
	if !insideAny(abs, raw) && !insideAny(abs, resolved) {
		return "", refused(f, raw, false)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", Errorf(KindStepValidation, "file %q does not exist", f).WithHint("paths are relative to the working directory of cdp-skill")
	}
	if err != nil {
		return "", Errorf(KindStepValidation, "file %q cannot be read: %v", f, err)
	}
	if !insideAny(real, resolved) {
		return "", refused(f, raw, true)
	}
	file, err := openInside(real, resolved)
	if err != nil {
		return "", Errorf(KindStepValidation, "file %q cannot be read inside the allowed directories: %v", f, err).
			WithHint("a path may have changed while it was checked; give the file again")
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return "", Errorf(KindStepValidation, "file %q cannot be read: %v", f, err)
	}
	if !info.Mode().IsRegular() {
		return "", Errorf(KindStepValidation, "%q is not a regular file", f).WithHint("give the path of a file, not of a directory or device")
	}
	if n := state.Links(info); n > 1 {
		return "", Errorf(KindStepValidation, "upload refused: %q has %d hard links, and a hard link can make a file from outside the allowed directories look like one inside", f, n).
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
		if !insideAny(real, []string{d}) {
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
	return Errorf(KindStepValidation, "upload refused: %q %s the allowed directories (%s)", f, how, strings.Join(dirs, ", ")).
		WithHint("run cdp-skill from a directory that contains the file, or add the file's directory to the environment variable %s (a list separated by %q)", UploadDirsEnv, string(os.PathListSeparator))
}

// insideAny reports whether path is one of dirs or below one of them.
func insideAny(path string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool {
		rel, err := filepath.Rel(d, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
	})
}

// Upload gives files to a file input. The target is an <input type=file>,
// its label, or an element holding exactly one (a drop zone): its files are
// set with DOM.setFileInputFiles. Any other target (a styled "Upload"
// button) is clicked with the file chooser intercepted, and the files go to
// the input that opened it. The page must then see the files: their names
// are read back from input.files.
func (p *Page) Upload(ctx context.Context, t Target, files []string, o UploadOptions) (*UploadResult, error) {
	dirs, err := orWorkingDir(o.AllowedDirs)
	if err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	paths, err := CheckUploadFiles(files, dirs)
	if err != nil {
		return nil, err
	}
	el, err := p.waitElement(ctx, t, o.Timeout)
	if err != nil {
		return nil, err
	}
	defer el.release()
	res := &UploadResult{TargetReport: p.targetReport(ctx, el, false)}
	input, err := p.elementFrom(ctx, el, `(el) => `+epFileInput.js()+`(el)`)
	if err != nil {
		return nil, fmt.Errorf("upload: find the file input: %w", err)
	}
	if input == nil {
		res.Via = "chooser"
		return res, p.uploadViaChooser(ctx, t, paths, o.ActionOptions, res)
	}
	defer input.release()
	res.Via = "input"
	return res, p.setFiles(ctx, input, paths, res)
}

// uploadViaChooser clicks the target with the file chooser intercepted and
// sets the files on the input the chooser belongs to.
func (p *Page) uploadViaChooser(ctx context.Context, t Target, paths []string, o ActionOptions, res *UploadResult) error {
	events, stop := p.sess.Subscribe(page.FileChooserOpened.Method)
	defer stop()
	if _, err := cdp.Call(ctx, p.sess, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true}); err != nil {
		return fmt.Errorf("upload: intercept the file chooser: %w", err)
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		cdp.Call(dctx, p.sess, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: false})
	}()
	cr, err := p.Click(ctx, t, ClickOptions{ActionOptions: o})
	if err != nil {
		return err
	}
	res.Warnings = append(res.Warnings, cr.Warnings...)
	res.Effect = cr.Effect
	ev, err := waitFileChooser(ctx, events, t)
	if err != nil {
		return err
	}
	// The input is handled in the engine's world of its frame.
	world, err := p.worldIn(ctx, p.sess, ev.FrameID)
	if err != nil {
		return err
	}
	obj, err := cdp.Call(ctx, p.sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: ev.BackendNodeID, ExecutionContextID: world})
	if err != nil || obj.Object == nil || obj.Object.ObjectID == "" {
		return Errorf(KindExecution, "upload: the file input of the chooser cannot be reached: %v", err)
	}
	input := p.element(ctx, obj.Object.ObjectID)
	defer input.release()
	return p.setFiles(ctx, input, paths, res)
}

// waitFileChooser waits for the file chooser a click opened.
func waitFileChooser(ctx context.Context, events <-chan jsonv2.Value, t Target) (page.EventFileChooserOpened, error) {
	var ev page.EventFileChooserOpened
	timer := time.NewTimer(FileChooserTimeout)
	defer timer.Stop()
	select {
	case raw := <-events:
		if err := decode(raw, &ev); err != nil {
			return ev, fmt.Errorf("upload: decode the file chooser event: %w", err)
		}
	case <-timer.C:
		return ev, Errorf(KindElementNotFound, "%s is not a file input, and clicking it opened no file chooser within %s", t, FileChooserTimeout).
			WithHint(`target the <input type=file> itself (hidden ones work too), e.g. selector "input[type=file]"`)
	case <-ctx.Done():
		return ev, ctx.Err()
	}
	if ev.BackendNodeID == 0 {
		return ev, Errorf(KindElementNotEditable, "the file chooser %s opened does not belong to an <input type=file> (the page uses the File System Access API), which cannot be answered", t)
	}
	return ev, nil
}

// setFiles sets the files of a file input and verifies that the page sees
// them, at least at its input or change event.
func (p *Page) setFiles(ctx context.Context, input *Element, paths []string, res *UploadResult) error {
	var st fileState
	if err := input.Call(ctx, &st, `(el) => `+epWatchFiles.js()+`(el)`); err != nil {
		return fmt.Errorf("upload: read the file input: %w", err)
	}
	if st.Disabled {
		return Errorf(KindElementNotEditable, "the file input is disabled")
	}
	if len(paths) > 1 && !st.Multiple {
		return Errorf(KindStepValidation, "the file input takes one file, and %d were given", len(paths)).
			WithHint("give one file (the input has no multiple attribute)")
	}
	w, err := p.watch(ctx)
	if err != nil {
		return err
	}
	sess, _ := p.exec(ctx)
	if _, err := cdp.Call(ctx, sess, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: input.ObjectID}); err != nil {
		w.stop()
		return fmt.Errorf("upload: set the files: %w", err)
	}
	eff := w.finish(ctx, SettleWindow)
	if eff.Navigated || len(eff.NewTabs) > 0 {
		res.Effect = eff
	}
	if eff.Warning != "" {
		res.Warnings = append(res.Warnings, eff.Warning)
	}
	return p.verifyFiles(ctx, input, paths, res)
}

// verifyFiles reads the input's files back and compares their names with
// the files given.
func (p *Page) verifyFiles(ctx context.Context, input *Element, paths []string, res *UploadResult) error {
	want := make([]string, len(paths))
	for i, path := range paths {
		want[i] = filepath.Base(path)
	}
	res.Uploaded, res.Count = want, len(want)
	if res.Navigated {
		return nil
	}
	var st fileState
	if err := input.Call(ctx, &st, `(el) => `+epFileState.js()+`(el)`); err != nil {
		if KindOf(err) == KindContextDestroyed {
			return nil
		}
		return fmt.Errorf("upload: read the files back: %w", err)
	}
	switch {
	case sameNames(st.Names, want):
	case sameNames(st.Seen, want):
		res.Warnings = append(res.Warnings, "the page read the files and then cleared the input")
	default:
		return Errorf(KindElementNotEditable, "the page does not see the files: the input holds %d file(s) %q", st.Count, st.Names).
			WithHint("a script of the page rejected them (type or size limits?); check the page for a message")
	}
	return nil
}

func sameNames(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// elementFrom calls fn on el and returns the element it returns, or nil
// when it returns anything else.
func (p *Page) elementFrom(ctx context.Context, el *Element, fn string) (*Element, error) {
	sess, _ := p.exec(ctx)
	res, err := cdp.Call(ctx, sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: "function() { return (" + fn + ")(this); }",
		ObjectID:            el.ObjectID,
	})
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, &JSError{Text: exceptionText(res.ExceptionDetails)}
	}
	obj := res.Result
	if obj == nil || obj.ObjectID == "" {
		return nil, nil
	}
	if obj.Subtype != "node" {
		p.release(ctx, obj.ObjectID)
		return nil, nil
	}
	return p.element(ctx, obj.ObjectID), nil
}
