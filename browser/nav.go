package browser

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
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

// Check validates a URL an agent asked to open: a URL with a scheme (a
// bare host gets https://), and a local one only where the policy allows.
func (pol URLPolicy) Check(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", Errorf(KindStepValidation, "empty URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", Errorf(KindStepValidation, "invalid URL %q: %v", raw, err)
	}
	if u.Scheme == "" {
		// "example.com/path" → https://example.com/path, as a browser would.
		if !strings.Contains(raw, " ") && strings.Contains(strings.SplitN(raw, "/", 2)[0], ".") || strings.HasPrefix(raw, "localhost") {
			scheme := "https://"
			if strings.HasPrefix(raw, "localhost") || strings.HasPrefix(raw, "127.0.0.1") {
				scheme = "http://"
			}
			return scheme + raw, nil
		}
		return "", Errorf(KindStepValidation, "URL %q has no scheme", raw).WithHint("use a full URL such as https://example.com/")
	}
	if err := checkLocalURL(raw, u, pol); err != nil {
		return "", err
	}
	return raw, nil
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
	if wait == "" {
		wait = WaitLoad
	}
	if err := p.recoverFault(ctx); err != nil {
		return nil, err
	}
	if err := p.enableLifecycle(ctx); err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := cdp.Events(lctx, p.sess, page.LifecycleEvent)
	res, err := cdp.Call(ctx, p.sess, page.Navigate, page.NavigateParams{URL: u})
	if err != nil {
		return nil, p.stopOnTimeout(ctx, navError(u, err), u, wait)
	}
	if res.IsDownload {
		// The URL is a file to download (reported on the step), not a
		// page: the tab stays where it was.
		return p.navResult(ctx)
	}
	if res.ErrorText == "net::ERR_ABORTED" && p.sess.waitCrash(ctx, crashWait(u)) {
		return nil, crashError("")
	}
	if res.ErrorText != "" {
		return nil, Errorf(KindNavigation, "navigation to %s failed: %s", u, res.ErrorText).
			WithHint("check that the server is running and the URL is right")
	}
	if res.LoaderID != "" && wait != WaitCommit {
		if err := waitLifecycle(ctx, events, res.FrameID, string(res.LoaderID), wait, u); err != nil {
			return nil, p.stopOnTimeout(ctx, err, u, wait)
		}
	}
	return p.navResult(ctx)
}

// waitLifecycle waits for the lifecycle event of wait on the frame's loader.
// A new loader on the same frame (a redirect by script before load) is
// followed rather than reported as an abort.
func waitLifecycle(ctx context.Context, events iter.Seq2[page.EventLifecycleEvent, error], frame cdp.FrameID, loader string, wait WaitUntil, u string) error {
	want := wait.lifecycleName()
	reached := ""
	for ev, err := range events {
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				msg := fmt.Sprintf("navigation to %s did not reach %q in time", u, wait)
				if reached != "" {
					msg += fmt.Sprintf(" (last reached: %s)", reached)
				}
				e := Errorf(KindTimeout, "%s", msg)
				if wait == WaitNetworkIdle {
					e.WithHint(`the page keeps the network busy; use waitUntil "load" instead`)
				}
				return e
			}
			return err
		}
		if ev.FrameID != frame {
			continue
		}
		if ev.Name == "init" && string(ev.LoaderID) != loader {
			loader = string(ev.LoaderID)
			reached = ""
			continue
		}
		if string(ev.LoaderID) != loader {
			continue
		}
		reached = ev.Name
		if ev.Name == want {
			return nil
		}
	}
	return Errorf(KindPageCrashed, "the tab closed or crashed while loading %s", u)
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
func (p *Page) stopOnTimeout(ctx context.Context, err error, u string, wait WaitUntil) error {
	if ctx.Err() == nil && KindOf(err) != KindTimeout {
		return err
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, serr := cdp.Call(sctx, p.sess, page.StopLoading, cdp.Empty{})
	var e *Error
	if !errors.As(err, &e) {
		e = Errorf(KindTimeout, "navigation to %s did not reach %q in time (the server sent no answer)", u, wait)
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

func (p *Page) navResult(ctx context.Context) (*NavResult, error) {
	info, err := p.Info(ctx)
	if err != nil {
		return nil, err
	}
	return &NavResult{URL: info.URL, Title: info.Title}, nil
}

// Reload reloads the page and waits for wait.
func (p *Page) Reload(ctx context.Context, wait WaitUntil, ignoreCache bool) (*NavResult, error) {
	return p.historyNav(ctx, wait, func() error {
		_, err := cdp.Call(ctx, p.sess, page.Reload, page.ReloadParams{IgnoreCache: ptr(ignoreCache)})
		return err
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
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		dir := "back"
		if delta > 0 {
			dir = "forward"
		}
		return nil, Errorf(KindNavigation, "cannot go %s: no history entry", dir)
	}
	entry := h.Entries[i]
	return p.historyNav(ctx, wait, func() error {
		_, err := cdp.Call(ctx, p.sess, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: entry.ID})
		return err
	})
}

// historyNav runs a navigation whose loader id is not known in advance and
// waits for it: a same-document change, a new document reaching wait, or a
// page restored from the back/forward cache.
func (p *Page) historyNav(ctx context.Context, wait WaitUntil, start func() error) (*NavResult, error) {
	if wait == "" {
		wait = WaitLoad
	}
	if err := p.recoverFault(ctx); err != nil {
		return nil, err
	}
	if err := p.enableLifecycle(ctx); err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lifecycle, stopL := p.sess.Subscribe(page.LifecycleEvent.Method)
	defer stopL()
	sameDoc, stopS := p.sess.Subscribe(page.NavigatedWithinDocument.Method)
	defer stopS()
	navigated, stopN := p.sess.Subscribe(page.FrameNavigated.Method)
	defer stopN()
	if err := start(); err != nil {
		return nil, err
	}
	want := wait.lifecycleName()
	for {
		select {
		case <-lctx.Done():
			return nil, Errorf(KindTimeout, "history navigation did not reach %q in time", wait)
		case <-sameDoc:
			return p.navResult(ctx)
		case raw := <-navigated:
			var ev page.EventFrameNavigated
			if decode(raw, &ev) == nil && ev.Frame != nil && ev.Frame.ParentID == "" && ev.Type == page.NavigationTypeBackForwardCacheRestore {
				return p.navResult(ctx)
			}
		case raw := <-lifecycle:
			var ev page.EventLifecycleEvent
			if decode(raw, &ev) == nil && ev.Name == want && ev.FrameID == cdp.FrameID(p.TargetID) {
				return p.navResult(ctx)
			}
		}
	}
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
