package browser

import (
	"context"
	"errors"
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

// Upload gives files to a file input, on the action template. The target
// is an <input type=file>, its label, or an element holding exactly one (a
// drop zone): its files are set with DOM.setFileInputFiles under the
// action's watch, and verified. Any other target (a styled "Upload"
// button) is clicked, with the click action, while the file chooser of its
// frame is intercepted, and the files go the same way to the input that
// opened it. The page must then see the files: their names are read back
// from input.files.
func (p *Page) Upload(ctx context.Context, t Target, files []string, o UploadOptions) (*UploadResult, error) {
	dirs, err := confine.OrWorkingDir(o.AllowedDirs)
	if err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	paths, err := CheckUploadFiles(files, dirs)
	if err != nil {
		return nil, err
	}
	u := &uploading{p: p, paths: paths}
	defer u.letGo()
	s, err := p.perform(ctx, t, u.action(o.ActionOptions))
	var chooser *needsChooser
	if errors.As(err, &chooser) {
		return p.uploadViaChooser(ctx, t, chooser.sess, u, o.ActionOptions)
	}
	if err != nil {
		return nil, err
	}
	return u.result(s), nil
}

// uploading is one upload: the set-files action and what it found.
type uploading struct {
	p     *Page
	paths []string
	// input is the file input the files go to; res the answer so far.
	input *Element
	res   *UploadResult
}

// action is the upload on the template: prepare finds the file input of
// the target, act sets its files, verify reads them back.
func (u *uploading) action(o ActionOptions) action {
	return action{kind: "upload", opts: o, attachedOnly: true, act: u.act, verify: u.verify,
		prepare: func(ctx context.Context, s *acting) (err error) {
			u.letGo() // the input of an attempt before
			u.res = &UploadResult{Via: "input"}
			u.input, err = u.p.fileInputOf(ctx, s, len(u.paths))
			return err
		}}
}

func (u *uploading) act(ctx context.Context, s *acting) error {
	if _, err := cdp.Call(ctx, u.input.sess, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: u.paths, ObjectID: u.input.ObjectID}); err != nil {
		return fmt.Errorf("upload: set the files: %w", err)
	}
	return nil
}

func (u *uploading) verify(ctx context.Context, s *acting) error {
	return u.p.verifyFiles(ctx, u.input, u.paths, u.res)
}

// result is the upload's answer once the template ran it as s.
func (u *uploading) result(s *acting) *UploadResult {
	res := u.res
	if res.TargetReport.Element == nil {
		res.TargetReport = s.report
	}
	res.Warnings = append(res.Warnings, s.warnings...)
	if s.effect.Navigated || len(s.effect.NewTabs) > 0 {
		res.Effect = s.effect
	}
	if s.effect.Navigated {
		res.Uploaded, res.Count = baseNames(u.paths), len(u.paths)
	}
	return res
}

// letGo releases the file input.
func (u *uploading) letGo() {
	if u.input != nil {
		u.input.release()
		u.input = nil
	}
}

// needsChooser says the upload's target holds no file input: a click on
// it has to open the file chooser of its frame (sess).
type needsChooser struct{ sess *Session }

func (*needsChooser) Error() string { return "upload: the target holds no file input" }

// fileInputOf is the file input the upload target s is, labels or holds,
// checked for taking n files (needsChooser when there is none).
func (p *Page) fileInputOf(ctx context.Context, s *acting, n int) (*Element, error) {
	input, err := p.elementFrom(ctx, s.el(), `(el) => `+epFileInput.js()+`(el)`)
	if err != nil {
		return nil, fmt.Errorf("upload: find the file input: %w", err)
	}
	if input == nil {
		return nil, &needsChooser{sess: s.el().sess}
	}
	return input, checkFileInput(ctx, input, n)
}

// checkFileInput fails when input is disabled or takes fewer than n
// files, and starts recording the names the page sees at its input and
// change events (fileState.Seen).
func checkFileInput(ctx context.Context, input *Element, n int) error {
	var st fileState
	if err := input.call(ctx, &st, epWatchFiles); err != nil {
		return fmt.Errorf("upload: read the file input: %w", err)
	}
	if st.Disabled {
		return Errorf(KindElementNotEditable, "the file input is disabled")
	}
	if n > 1 && !st.Multiple {
		return Errorf(KindStepValidation, "the file input takes one file, and %d were given", n).
			WithHint("give one file (the input has no multiple attribute)")
	}
	return nil
}

// uploadViaChooser clicks the target (the click action, on the template)
// with the file chooser of the target's frame (its session sess)
// intercepted, and sets the files on the input the chooser belongs to
// with the upload's act and verification, under a watch of their own.
func (p *Page) uploadViaChooser(ctx context.Context, t Target, sess *Session, u *uploading, o ActionOptions) (*UploadResult, error) {
	events, stop := sess.Subscribe(page.FileChooserOpened.Method)
	defer stop()
	if _, err := cdp.Call(ctx, sess, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true}); err != nil {
		return nil, fmt.Errorf("upload: intercept the file chooser: %w", err)
	}
	defer func() {
		dctx, cancel := cleanupCtx(ctx)
		defer cancel()
		cdp.Call(dctx, sess, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: false})
	}()
	cr, err := p.Click(ctx, t, ClickOptions{ActionOptions: o})
	if err != nil {
		return nil, err
	}
	ev, err := waitFileChooser(ctx, events, t)
	if err != nil {
		return nil, err
	}
	// The input is handled in the engine's world of its frame.
	world, err := p.worldIn(ctx, sess, ev.FrameID)
	if err != nil {
		return nil, err
	}
	obj, err := cdp.Call(ctx, sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: ev.BackendNodeID, ExecutionContextID: world})
	if err != nil || obj.Object == nil || obj.Object.ObjectID == "" {
		return nil, Errorf(KindExecution, "upload: the file input of the chooser cannot be reached: %v", err)
	}
	u.input = &Element{ObjectID: obj.Object.ObjectID, sess: sess}
	u.res = &UploadResult{Via: "chooser", TargetReport: cr.TargetReport, Effect: cr.Effect, Warnings: cr.Warnings}
	if err := checkFileInput(ctx, u.input, len(u.paths)); err != nil {
		return nil, err
	}
	ac := u.action(o)
	ac.prepare = nil
	s, err := p.actOn(ctx, &acting{t: t, ready: &Actionable{El: u.input}, reported: true}, ac)
	if err != nil {
		return nil, err
	}
	return u.result(s), nil
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

// verifyFiles reads the input's files back and compares their names with
// the files given.
func (p *Page) verifyFiles(ctx context.Context, input *Element, paths []string, res *UploadResult) error {
	want := baseNames(paths)
	res.Uploaded, res.Count = want, len(want)
	var st fileState
	if err := input.call(ctx, &st, epFileState); err != nil {
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

// baseNames are the file names (not paths) of paths.
func baseNames(paths []string) []string {
	names := make([]string, len(paths))
	for i, path := range paths {
		names[i] = filepath.Base(path)
	}
	return names
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
	res, err := cdp.Call(ctx, el.sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
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
		releaseIn(el.sess, obj.ObjectID)
		return nil, nil
	}
	return &Element{ObjectID: obj.ObjectID, sess: el.sess}, nil
}
