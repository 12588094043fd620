package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/cdp-skill/cdp-skill/browser/confine"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// WaitUntil says when a navigation counts as done.
type WaitUntil string

// The navigation wait conditions.
const (
	WaitCommit           WaitUntil = "commit"
	WaitDOMContentLoaded WaitUntil = "domcontentloaded"
	WaitLoad             WaitUntil = "load"
	WaitNetworkIdle      WaitUntil = "networkidle"
)

// ParseWaitUntil validates a waitUntil value ("" means load).
func ParseWaitUntil(s string) (WaitUntil, error) {
	switch w := WaitUntil(strings.ToLower(s)); w {
	case "":
		return WaitLoad, nil
	case WaitCommit, WaitDOMContentLoaded, WaitLoad, WaitNetworkIdle:
		return w, nil
	}
	return "", Errorf(KindStepValidation, "waitUntil %q is not one of commit, domcontentloaded, load, networkidle", s)
}

// lifecycleName maps a wait condition to Chrome's lifecycle event name.
func (w WaitUntil) lifecycleName() string {
	switch w {
	case WaitDOMContentLoaded:
		return "DOMContentLoaded"
	case WaitNetworkIdle:
		return "networkIdle"
	}
	return "load"
}

// NavResult is the outcome of a navigation.
type NavResult struct {
	URL   string `json:"url"`
	Title string `json:"title,omitempty"`
}

func (p *Page) enableLifecycle(ctx context.Context) error {
	p.mu.Lock()
	on := p.lifecycleOn
	p.mu.Unlock()
	if on {
		return nil
	}
	if _, err := cdp.Call(ctx, p.sess, page.SetLifecycleEventsEnabled, page.SetLifecycleEventsEnabledParams{Enabled: true}); err != nil {
		return err
	}
	p.mu.Lock()
	p.lifecycleOn = true
	p.mu.Unlock()
	return nil
}

// Navigate loads u in the top frame and waits until the condition holds.
func (p *Page) Navigate(ctx context.Context, u string, wait WaitUntil) (*NavResult, error) {
	p.mu.Lock()
	pol := p.urls
	p.mu.Unlock()
	u, err := pol.Check(u)
	if err != nil {
		return nil, err
	}
	if err := p.GuardFiles(ctx, u); err != nil {
		return nil, err
	}
	return p.navigateAndWait(ctx, "navigation to "+u, wait, func() (string, error) {
		res, err := cdp.Call(ctx, p.sess, page.Navigate, page.NavigateParams{URL: u})
		if err != nil {
			return "", navError(u, err)
		}
		if res.IsDownload {
			// The URL is a file to download (reported on the step), not
			// a page: the tab stays where it was.
			return "", errNothingToWait
		}
		if res.ErrorText == "net::ERR_ABORTED" && p.sess.WaitCrash(ctx, crashWait(u)) {
			return "", cdpconn.CrashError("")
		}
		if res.ErrorText == "net::ERR_ABORTED" {
			return "", p.abortedNavigation(ctx, u)
		}
		if res.ErrorText != "" {
			return "", Errorf(KindNavigation, "navigation to %s failed: %s", u, res.ErrorText).
				WithHint("check that the server is running and the URL is right")
		}
		if res.LoaderID == "" || wait == WaitCommit {
			// A same-document navigation, or committed already.
			return "", errNothingToWait
		}
		return string(res.LoaderID), nil
	})
}

// tabSchemes are the URL schemes Chrome shows in a tab.
var tabSchemes = map[string]bool{"http": true, "https": true, "file": true, "data": true, "about": true, "blob": true, "chrome": true, "view-source": true}

// abortedNavigation is the error of a navigation Chrome aborted
// (NavigationAbortedError): a scheme it does not show in a tab (ftp:,
// mailto:), a response with no page to show (204), or another navigation
// that replaced it; it says which it can tell, and where the tab is now.
func (p *Page) abortedNavigation(ctx context.Context, u string) error {
	if pu, err := url.Parse(u); err == nil && pu.Scheme != "" && !tabSchemes[strings.ToLower(pu.Scheme)] {
		return Errorf(KindNavigationAborted, "navigation to %s was aborted: Chrome does not show %s: URLs in a tab; the tab stays where it was", u, pu.Scheme).
			WithHint("give an http:// or https:// URL")
	}
	where := "where it was"
	if now, err := p.URL(ctx); err == nil && now != "" {
		where = "at " + now
	}
	return Errorf(KindNavigationAborted, "navigation to %s was aborted: the server answered with no page to show (such as 204 No Content), or another navigation (the page's own) replaced it; the tab is %s", u, where).
		WithHint("if the page was navigating itself, wait for its URL and go again; else check what the URL answers (the network step lists responses)")
}

// errNothingToWait is what a navigation's start returns when it is done
// already (a download, a same-document navigation, waitUntil commit).
var errNothingToWait = errors.New("nothing to wait for")

// navigateAndWait is the one wait of the navigations a step asks for (goto,
// reload, back, forward): it listens before start runs, then waits until
// the top frame's new document reaches wait. start returns that document's
// loader when Chrome names it (Page.navigate); when it does not (history,
// reload), a same-document navigation or a page restored from the
// back/forward cache also ends the wait. what names the navigation in
// errors. A navigation that runs out of time is stopped (stopOnTimeout).
func (p *Page) navigateAndWait(ctx context.Context, what string, wait WaitUntil, start func() (loader string, err error)) (*NavResult, error) {
	if wait == "" {
		wait = WaitLoad
	}
	if err := p.recoverFault(ctx); err != nil {
		return nil, err
	}
	if err := p.enableLifecycle(ctx); err != nil {
		return nil, err
	}
	lifecycle, stopL := p.sess.Subscribe(page.LifecycleEvent.Method)
	defer stopL()
	sameDoc, stopS := p.sess.Subscribe(page.NavigatedWithinDocument.Method)
	defer stopS()
	navigated, stopN := p.sess.Subscribe(page.FrameNavigated.Method)
	defer stopN()
	boot := p.armBoot(ctx, wait)
	defer boot.remove(ctx)
	loader, err := start()
	if errors.Is(err, errNothingToWait) {
		return p.navResult(ctx)
	}
	if err != nil {
		return nil, p.stopOnTimeout(ctx, err, what, wait)
	}
	named := loader != ""
	load := &loadWait{frame: cdp.FrameID(p.TargetID), loader: loader, newDocument: !named, want: wait.lifecycleName()}
	// A history entry can be an iframe's (a link followed inside it): when
	// a frame, not the top document, gets the new document, that is the
	// navigation. Out-of-process frames say so on their own sessions.
	frames := newFrameWatch(load.frame)
	stopFrames := func() {}
	if !named {
		stopFrames = frames.watchOOPIFs(p)
	}
	defer stopFrames()
	topCommitted := false
	for {
		select {
		case <-ctx.Done():
			return nil, p.stopOnTimeout(ctx, load.timeout(what, wait), what, wait)
		case _, ok := <-sameDoc:
			if !ok {
				return nil, navClosed(what)
			}
			if !named {
				return p.navResult(ctx)
			}
		case ev := <-frames.events:
			if ev.method == page.FrameNavigated.Method && !topCommitted {
				return p.navResult(ctx)
			}
		case raw, ok := <-navigated:
			if !ok {
				return nil, navClosed(what)
			}
			var ev page.EventFrameNavigated
			if named || decode(raw, &ev) != nil || ev.Frame == nil {
				continue
			}
			if ev.Frame.ParentID != "" {
				if !topCommitted {
					return p.navResult(ctx) // the entry was this frame's
				}
				continue
			}
			topCommitted = true
			if ev.Type == page.NavigationTypeBackForwardCacheRestore || wait == WaitCommit {
				return p.navResult(ctx)
			}
		case raw, ok := <-lifecycle:
			if !ok {
				return nil, navClosed(what)
			}
			var ev page.EventLifecycleEvent
			if decode(raw, &ev) == nil && load.see(ev) {
				boot.settle(ctx)
				return p.navResult(ctx)
			}
		}
	}
}

// loadWait follows the loads of one frame towards a lifecycle event: the
// loader waited for (given, or, when empty, any until a new document
// starts), and a new loader on the same frame (a redirect by script before
// load) is followed rather than reported as an abort. Page navigations and
// the navigations an action sets off (watch.go) both wait with it.
type loadWait struct {
	frame  cdp.FrameID
	loader string
	// newDocument, with no loader given, takes no event before a new
	// document starts (the old one's late events are not the new one's).
	newDocument bool
	want        string
	reached     string
}

// see takes a lifecycle event and reports whether the load reached want.
func (l *loadWait) see(ev page.EventLifecycleEvent) bool {
	if ev.FrameID != l.frame {
		return false
	}
	if ev.Name == "init" && string(ev.LoaderID) != l.loader {
		l.loader, l.reached = string(ev.LoaderID), "commit"
		return false
	}
	if l.loader == "" && l.newDocument || l.loader != "" && string(ev.LoaderID) != l.loader {
		return false
	}
	switch ev.Name {
	case "init":
		l.reached = "commit"
	case "DOMContentLoaded", "load", "networkAlmostIdle", "networkIdle":
		// (The paint events say nothing an agent waits for.)
		l.reached = ev.Name
	}
	return ev.Name == l.want
}

// timeout is the error of a load that did not reach its event in time.
func (l *loadWait) timeout(what string, wait WaitUntil) error {
	msg := fmt.Sprintf("%s did not reach %q in time", what, wait)
	switch l.reached {
	case "":
		msg += " (no new page started: the server sent no answer)"
	default:
		msg += fmt.Sprintf(" (last reached: %s)", l.reached)
	}
	e := Errorf(KindTimeout, "%s", msg)
	if wait == WaitNetworkIdle && (l.reached == "load" || l.reached == "networkAlmostIdle") {
		e.WithHint(`the page loaded but keeps the network busy; use waitUntil "load" instead`)
	}
	return e
}

// navClosed is the error of a navigation whose tab went away.
func navClosed(what string) error {
	return Errorf(KindPageCrashed, "the tab closed or crashed during the %s", what)
}

// crashWait is how long an aborted navigation waits for a renderer crash
// to be reported: chrome:// debug URLs (crash, kill) take a while to die.
func crashWait(u string) time.Duration {
	if strings.HasPrefix(u, "chrome://") {
		return 5 * time.Second
	}
	return time.Second
}

// stopOnTimeout stops a load that ran out of time (Page.stopLoading), so a
// server that never answers does not leave the tab loading, and says what
// the navigation waited for.
func (p *Page) stopOnTimeout(ctx context.Context, err error, what string, wait WaitUntil) error {
	if ctx.Err() == nil && KindOf(err) != KindTimeout {
		return err
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, serr := cdp.Call(sctx, p.sess, page.StopLoading, cdp.Empty{})
	var e *Error
	if !errors.As(err, &e) {
		e = Errorf(KindTimeout, "%s did not reach %q in time (the server sent no answer)", what, wait)
	}
	if serr == nil {
		e.Hint = joinHint(e.Hint, "the load was stopped and the tab is usable; check that the server answers, or raise the step timeout")
	}
	return e
}

func joinHint(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func navError(u string, err error) error {
	var pe *ProtocolError
	if errors.As(err, &pe) {
		return Errorf(KindNavigation, "navigation to %s failed: %s", u, pe.Message)
	}
	return err
}

// navResult reads where the navigation ended. A page that navigates
// again at once (a redirect by script, a page that reloads itself in a
// loop) can take the document away before it is read: the tab's history
// entry, which needs no document, says it then; while Chrome swaps the
// tab's page for the next document it has no history either ("Not
// attached to an active page"), and the browser's record of the target
// says where it is.
func (p *Page) navResult(ctx context.Context) (*NavResult, error) {
	info, err := p.Info(ctx)
	if err == nil {
		return &NavResult{URL: info.URL, Title: info.Title}, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	h, herr := cdp.Call(ctx, p.sess, page.GetNavigationHistory, cdp.Empty{})
	if i := int(h.CurrentIndex); herr == nil && i >= 0 && i < len(h.Entries) {
		return &NavResult{URL: h.Entries[i].URL, Title: h.Entries[i].Title}, nil
	}
	if r, terr := p.TabRecord(ctx); terr == nil {
		return r, nil
	}
	return nil, err
}

// TabRecord is where the tab is by the browser's record of it, which
// needs no document: for a page whose documents come and go faster than
// they can be read (one that navigates in a loop). While Chrome swaps the
// tab's page the record has no URL: it is asked again, for up to
// tabRecordWait.
func (p *Page) TabRecord(ctx context.Context) (*NavResult, error) {
	ctx, cancel := context.WithTimeout(ctx, tabRecordWait)
	defer cancel()
	for {
		t, err := cdp.Call(ctx, p.Browser.Session(), target.GetTargetInfo, target.GetTargetInfoParams{TargetID: p.TargetID})
		if err != nil {
			return nil, fmt.Errorf("tab record: %w", err)
		}
		if t.TargetInfo == nil {
			return nil, fmt.Errorf("tab record: Chrome has no record of target %s", p.TargetID)
		}
		if t.TargetInfo.URL != "" {
			return &NavResult{URL: t.TargetInfo.URL, Title: t.TargetInfo.Title}, nil
		}
		if err := Sleep(ctx, 50*time.Millisecond); err != nil {
			return nil, fmt.Errorf("tab record: the tab has no URL (its page is being replaced): %w", err)
		}
	}
}

// tabRecordWait bounds TabRecord's wait for a URL.
const tabRecordWait = time.Second

// Reload reloads the page and waits for wait.
func (p *Page) Reload(ctx context.Context, wait WaitUntil, ignoreCache bool) (*NavResult, error) {
	h, err := cdp.Call(ctx, p.sess, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	if i := int(h.CurrentIndex); i >= 0 && i < len(h.Entries) {
		if err := p.checkHistoryURL(ctx, "reload", h.Entries[i].URL); err != nil {
			return nil, err
		}
	}
	return p.navigateAndWait(ctx, "reload", wait, func() (string, error) {
		_, err := cdp.Call(ctx, p.sess, page.Reload, page.ReloadParams{IgnoreCache: ptr(ignoreCache)})
		return "", err
	})
}

// Back goes one entry back in history.
func (p *Page) Back(ctx context.Context, wait WaitUntil) (*NavResult, error) {
	return p.goHistory(ctx, -1, wait)
}

// Forward goes one entry forward in history.
func (p *Page) Forward(ctx context.Context, wait WaitUntil) (*NavResult, error) {
	return p.goHistory(ctx, 1, wait)
}

func (p *Page) goHistory(ctx context.Context, delta int, wait WaitUntil) (*NavResult, error) {
	h, err := cdp.Call(ctx, p.sess, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	dir := "back"
	if delta > 0 {
		dir = "forward"
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		return nil, Errorf(KindNavigation, "cannot go %s: no history entry", dir)
	}
	entry := h.Entries[i]
	if err := p.checkHistoryURL(ctx, "go "+dir, entry.URL); err != nil {
		return nil, err
	}
	return p.navigateAndWait(ctx, "going "+dir+" to "+entry.URL, wait, func() (string, error) {
		_, err := cdp.Call(ctx, p.sess, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: entry.ID})
		return "", err
	})
}

// checkHistoryURL applies the page's URL policy to a document a history
// move or a reload would load: a file: page an earlier, opted-in command
// opened is not reopened by one without the opt-in, and one it may reopen
// is guarded (fileguard.go).
func (p *Page) checkHistoryURL(ctx context.Context, what, raw string) error {
	p.mu.Lock()
	pol := p.urls
	p.mu.Unlock()
	u, err := url.Parse(raw)
	if err != nil {
		return nil // Chrome's own entry; nothing local to refuse
	}
	if err := confine.CheckLocalURL(raw, u, pol); err != nil {
		return fmt.Errorf("cannot %s: %w", what, err)
	}
	return p.GuardFiles(ctx, raw)
}

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
