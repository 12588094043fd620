package runtime

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/builtins"
	"github.com/cdp-skill/cdp-skill/lang"
)

// pageUnder is the page a step started on, and how many documents its
// top frame had had then.
type pageUnder struct {
	page *browser.Page
	// env holds the command's frame selection, which a new document ends.
	env       *builtins.Env
	documents int
	// frame is the frame the step started in (nil: the top document),
	// and frameDocuments the documents it had had then.
	frame          *browser.Frame
	frameDocuments int
}

// newPageUnder notes the page p as a step starts on it, in frame (its
// command's selection as it is now; nil: the top document).
func newPageUnder(env *builtins.Env, p *browser.Page, frame *browser.Frame) pageUnder {
	u := pageUnder{page: p, env: env, documents: p.Documents(), frame: frame}
	if frame != nil {
		u.frameDocuments = p.FrameDocuments(frame)
	}
	return u
}

// leaveGoneFrame moves a step whose selected frame went away with its
// page's document (earlier in the command: a link in the frame left the
// page) to the new top document, where a frame step resolves from too;
// other steps say so.
func leaveGoneFrame(env *builtins.Env, a *lang.Action, res *StepResult) {
	if !env.Frame().Gone() {
		return
	}
	env.SelectFrame(nil)
	if a.Name != "frame" {
		res.Warning = append(res.Warning, "the frame selected earlier went away when its page loaded a new document, so this step ran in the top document; switch with {\"frame\": …} to act in a frame of the new page")
	}
}

// navigated moves the command to its new top document after a navigation
// step that left a selected frame behind (a goto while in a frame): the
// frame went with the old document, and that is no news.
func (u pageUnder) navigated(a *lang.Action) {
	if u.page != nil && notExplained(a) && u.env.Frame().Gone() {
		u.env.SelectFrame(nil)
	}
}

// lookupKinds are the failures of a step that looked for something in the
// page, or whose JavaScript the page cut off: when the page loaded another
// document meanwhile (a redirect, a session that expired, a script's
// reload), what the step looked for may have been on the page it left.
var lookupKinds = map[browser.Kind]bool{
	browser.KindElementNotFound: true, browser.KindTimeout: true, browser.KindStaleElement: true,
	browser.KindContextDestroyed: true,
}

// notExplained says a new document does not explain the action's failure:
// a navigation's work is loading one, and each of a recipe's steps
// explains its own failure.
func notExplained(a *lang.Action) bool { return a.Navigates || a.RunsSteps }

// explain adds to a failed step that the page loaded another document
// while it ran, and which, so the agent does not look again for an
// element of a page that is gone. A step that ran in a frame failed
// because its frame went with the old document, whatever its error: the
// page is back in its top document, where the next steps run.
func (u pageUnder) explain(ctx context.Context, a *lang.Action, err error) error {
	if u.page == nil || notExplained(a) || a.OpensTab || u.page.TabClosed() {
		return err
	}
	if !u.changed(ctx, err) {
		return u.explainFrame(err)
	}
	inFrame := u.frame != nil
	if !inFrame && !lookupKinds[browser.KindOf(err)] {
		return err
	}
	msg, hint, details := errorParts(err)
	if strings.Contains(msg, browser.NewDocumentNote) {
		return err
	}
	if browser.KindOf(err) == browser.KindContextDestroyed {
		msg = "the page left the document the step's JavaScript ran in before it finished"
	}
	note := browser.NewDocumentNote
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if url, uerr := u.page.URL(rctx); uerr == nil && url != "" && !strings.Contains(msg, url) {
		note += ", now " + url
	}
	if inFrame {
		u.env.SelectFrame(nil)
		note += "; the frame the step ran in went with the old document, so the next steps run in the top document"
		if !lookupKinds[browser.KindOf(err)] {
			// The page's own words (no frame for the id, a context gone)
			// say nothing an agent can use.
			msg, hint, details = "the step could not finish in its frame", "", nil
		}
	}
	if hint == "" {
		hint = "take a snapshot to see the page it is on now"
	}
	return &browser.Error{Kind: browser.KindOf(err), Err: err, Details: details, Message: msg + "; " + note, Hint: hint}
}

// newDocumentWait bounds the wait for the new document of a navigation
// that cut a step off: its old document's end comes first.
const newDocumentWait = 2 * time.Second

// changed reports whether the top frame has had another document since
// the step started. A step the navigation cut off (its context destroyed)
// failed before the new document came: that one is waited for.
func (u pageUnder) changed(ctx context.Context, err error) bool {
	if u.page.Documents() != u.documents {
		return true
	}
	if browser.KindOf(err) != browser.KindContextDestroyed {
		return false
	}
	if u.page.TabClosed() {
		return false
	}
	wctx, cancel := context.WithTimeout(ctx, newDocumentWait)
	defer cancel()
	return u.page.WaitNewDocument(wctx, u.documents)
}

// frameNote is what explainFrame adds to an error.
const frameNote = "meanwhile the frame the step ran in loaded a new document (a navigation or a reload)"

// explainFrame adds to a failed lookup in a frame that the frame loaded
// another document while the step ran (the page around it stayed).
func (u pageUnder) explainFrame(err error) error {
	if u.frameDocuments == 0 || u.frame == nil || !lookupKinds[browser.KindOf(err)] || u.page.FrameDocuments(u.frame) == u.frameDocuments {
		return err
	}
	msg, hint, details := errorParts(err)
	if strings.Contains(msg, frameNote) {
		return err
	}
	if hint == "" {
		hint = "take a snapshot to see the frame's new document"
	}
	return &browser.Error{Kind: browser.KindOf(err), Err: err, Details: details, Message: msg + "; " + frameNote, Hint: hint}
}

// errorParts splits err into its message, hint and details (the whole
// text as the message when it is not a browser.Error).
func errorParts(err error) (msg, hint string, details map[string]any) {
	if be := (*browser.Error)(nil); errors.As(err, &be) && be.Message != "" {
		return be.Message, be.Hint, be.Details
	}
	return err.Error(), "", nil
}
