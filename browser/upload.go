package browser

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/cdp-skill/cdp-skill/browser/confine"
)

// UploadDirsEnv names the environment variable listing directories
// (besides the working directory) that upload may read files from.
const UploadDirsEnv = confine.UploadDirsEnv

// CheckUploadFiles checks and stages the files to upload (see
// confine.CheckUploadFiles).
func CheckUploadFiles(files []string, dirs []string) ([]string, error) {
	return confine.CheckUploadFiles(files, dirs)
}

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

// Upload gives files to a file input. The target is an <input type=file>,
// its label, or an element holding exactly one (a drop zone): its files are
// set with DOM.setFileInputFiles. Any other target (a styled "Upload"
// button) is clicked with the file chooser intercepted, and the files go to
// the input that opened it. The page must then see the files: their names
// are read back from input.files.
func (p *Page) Upload(ctx context.Context, t Target, files []string, o UploadOptions) (*UploadResult, error) {
	dirs, err := confine.OrWorkingDir(o.AllowedDirs)
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
