package browser

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// frameLoadBound bounds how long an action's answer waits for a frame it
// navigated to load (past it the answer says the frame was still loading).
const frameLoadBound = 5 * time.Second

// frameWatch follows the iframes an action navigates (a link inside a
// frame, a form that posts into one, a script that sets a frame's src):
// where each went, for the answer (Effect.FramesNavigated), and their new
// documents' loads up to DOMContentLoaded, so the answer shows the frame's
// new document rather than the old one or a blank frame. The top
// document's own navigation is actionWatch's.
type frameWatch struct {
	main cdp.FrameID
	// loading are the frames whose new document has not loaded yet.
	loading  map[cdp.FrameID]*loadWait
	deadline time.Time
	// went is each frame's new document, order the frames in the order
	// they first went; committed says a frame's new document is there.
	went      map[cdp.FrameID]string
	order     []cdp.FrameID
	committed map[cdp.FrameID]bool
	// paths are the paths each frame navigated to during the action: a
	// frame that loads the same path again (a rotating ad) or refreshes
	// itself (a meta or header refresh) navigates on its own, and is
	// neither awaited nor reported (selfDriven).
	paths      map[cdp.FrameID][]string
	selfDriven map[cdp.FrameID]bool
	// fresh are the frames the action added: their first document is no
	// navigation (it is awaited, not reported).
	fresh map[cdp.FrameID]bool
	// began are the frames whose navigation was asked for or started
	// during the action: a document that commits in another frame ends a
	// navigation begun before the action (a frame of a page still
	// loading), which is not the action's.
	began map[cdp.FrameID]bool
	// failed are the frames whose navigation ended on Chrome's error page.
	failed int
	// oopifs are the out-of-process frames whose document changed, and
	// oopifURL the last URL Chrome gave each during the action.
	oopifs   []cdp.FrameID
	oopifURL map[cdp.FrameID]string
	// events are the out-of-process frames' (see watchOOPIFs).
	events chan oopifEvent
}

func newFrameWatch(main cdp.FrameID) *frameWatch {
	return &frameWatch{main: main, loading: map[cdp.FrameID]*loadWait{}, went: map[cdp.FrameID]string{},
		committed: map[cdp.FrameID]bool{}, paths: map[cdp.FrameID][]string{}, selfDriven: map[cdp.FrameID]bool{},
		fresh: map[cdp.FrameID]bool{}, began: map[cdp.FrameID]bool{}, oopifURL: map[cdp.FrameID]string{}, events: make(chan oopifEvent, 64)}
}

// frameWant is what a frame's new document is awaited to reach: its
// structure is there (the snapshot shows it); images may still load.
const frameWant = "DOMContentLoaded"

// requested takes a navigation a frame asked for: its new document is
// awaited from now (a javascript: URL or another tab's navigation loads
// nothing here).
func (f *frameWatch) requested(ev page.EventFrameRequestedNavigation) {
	if ev.FrameID == f.main || f.selfDriven[ev.FrameID] || strings.HasPrefix(ev.URL, "javascript:") || ev.Disposition != page.ClientNavigationDispositionCurrentTab {
		return
	}
	if ev.Reason == page.ClientNavigationReasonMetaTagRefresh || ev.Reason == page.ClientNavigationReasonHTTPHeaderRefresh {
		// The frame's document asked to be refreshed (an ad, a status
		// widget): not the action's doing.
		f.selfDriven[ev.FrameID] = true
		delete(f.loading, ev.FrameID)
		return
	}
	f.began[ev.FrameID] = true
	if _, ok := f.loading[ev.FrameID]; !ok {
		f.await(&loadWait{frame: ev.FrameID, want: frameWant, newDocument: true})
	}
}

// started takes a navigation Chrome started in a frame.
func (f *frameWatch) started(ev page.EventFrameStartedNavigating) {
	id := ev.FrameID
	if id == f.main || ev.NavigationType == "sameDocument" || ev.NavigationType == "historySameDocument" || f.selfDriven[id] {
		return
	}
	f.began[id] = true
	path := ev.URL
	if u, err := url.Parse(ev.URL); err == nil {
		path = u.Host + u.Path
	}
	if slices.Contains(f.paths[id], path) {
		f.selfDriven[id] = true
		delete(f.loading, id)
		return
	}
	f.paths[id] = append(f.paths[id], path)
	delete(f.committed, id)
	f.await(&loadWait{frame: id, loader: string(ev.LoaderID), want: frameWant})
}

// sameDocument takes a same-document navigation: a frame whose requested
// navigation was one (a fragment link) loads nothing.
func (f *frameWatch) sameDocument(id cdp.FrameID) bool {
	return f.done(id)
}

// done stops awaiting frame id, reporting whether it was awaited.
func (f *frameWatch) done(id cdp.FrameID) bool {
	if _, ok := f.loading[id]; !ok {
		return false
	}
	delete(f.loading, id)
	return true
}

func (f *frameWatch) await(l *loadWait) {
	f.loading[l.frame] = l
	if f.deadline.IsZero() {
		f.deadline = time.Now().Add(frameLoadBound)
	}
}

// lifecycle takes a lifecycle event and reports whether a frame's new
// document arrived with it.
func (f *frameWatch) lifecycle(ev page.EventLifecycleEvent) bool {
	l, ok := f.loading[ev.FrameID]
	if !ok || !l.see(ev) {
		return false
	}
	return f.done(ev.FrameID)
}

// stopped takes a frame that stopped loading: before its new document
// committed, the navigation ended without one (a 204 answer, a download,
// a cancelled load).
func (f *frameWatch) stopped(id cdp.FrameID) bool {
	if f.committed[id] {
		return false
	}
	return f.done(id)
}

// navigated takes a frame's new document.
func (f *frameWatch) navigated(ev page.EventFrameNavigated) {
	fr := ev.Frame
	if fr == nil || fr.ParentID == "" || ev.Type == page.NavigationTypeBackForwardCacheRestore {
		return
	}
	f.committed[fr.ID] = true
	if !f.began[fr.ID] {
		return // a navigation begun before the action
	}
	if strings.HasPrefix(fr.URL, "chrome-error:") {
		f.failed++
		f.done(fr.ID)
		return
	}
	f.wentTo(fr.ID, fr.URL)
}

func (f *frameWatch) wentTo(id cdp.FrameID, u string) {
	if _, seen := f.went[id]; !seen {
		f.order = append(f.order, id)
	}
	f.went[id] = u
}

// frameAttached takes a frame the action added.
func (f *frameWatch) frameAttached(id cdp.FrameID) { f.fresh[id] = true }

// detached takes a frame that left the page: nothing of it is awaited
// or reported.
func (f *frameWatch) detached(id cdp.FrameID) bool {
	delete(f.went, id)
	return f.done(id)
}

// attached takes an iframe target that attached during the action: a
// frame that navigated to another site moved to a renderer of its own;
// its events come from its own session from now on.
func (f *frameWatch) attached(ev target.EventAttachedToTarget) bool {
	if ev.TargetInfo == nil || ev.TargetInfo.Type != "iframe" {
		return false
	}
	id := cdp.FrameID(ev.TargetInfo.TargetID)
	if _, ok := f.loading[id]; !ok {
		return false
	}
	f.oopifURL[id] = ev.TargetInfo.URL
	f.documentCleared(id)
	return f.done(id)
}

// targetChanged keeps an out-of-process frame's latest URL.
func (f *frameWatch) targetChanged(info *target.Info) {
	if info != nil && info.Type == "iframe" {
		f.oopifURL[cdp.FrameID(info.TargetID)] = info.URL
	}
}

// documentCleared takes an out-of-process frame whose document went away.
func (f *frameWatch) documentCleared(id cdp.FrameID) {
	if !slices.Contains(f.oopifs, id) {
		f.oopifs = append(f.oopifs, id)
	}
}

// waiting reports whether a frame's document is still awaited, and for
// how long at most.
func (f *frameWatch) waiting() (time.Duration, bool) {
	if len(f.loading) == 0 {
		return 0, false
	}
	left := time.Until(f.deadline)
	return left, left > 0
}

// report returns where the frames went (the out-of-process frames' URLs
// are the last Chrome gave during the action, or read now), and a warning
// when a frame ended on an error page or is still loading.
func (f *frameWatch) report(ctx context.Context, b *Browser) ([]string, string) {
	for _, id := range f.oopifs {
		if _, seen := f.went[id]; seen {
			continue
		}
		u := f.oopifURL[id]
		if u == "" {
			rctx, cancel := brief(ctx)
			if info, err := cdp.Call(rctx, b.Session(), target.GetTargetInfo, target.GetTargetInfoParams{TargetID: target.ID(id)}); err == nil && info.TargetInfo != nil {
				u = info.TargetInfo.URL
			}
			cancel()
		}
		if strings.HasPrefix(u, "chrome-error:") {
			f.failed++
		} else if u != "" {
			f.wentTo(id, u)
		}
	}
	var urls []string
	for _, id := range f.order {
		if u, ok := f.went[id]; ok && !f.fresh[id] && !f.selfDriven[id] && !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	warning := ""
	switch {
	case f.failed > 0:
		warning = "a frame the action navigated shows Chrome's error page: the site refuses to be shown in a frame, or could not be reached"
	case len(f.loading) > 0:
		warning = "a frame the action navigated was still loading; take a snapshot to see it now"
	}
	return urls, warning
}

// oopifEvent is an event of an out-of-process frame's session.
type oopifEvent struct {
	frame  cdp.FrameID
	method string
	raw    jsonv2.Value
}

// oopifMethods are the events followed in out-of-process frames' sessions.
var oopifMethods = []string{page.FrameRequestedNavigation.Method, "Page.frameStartedNavigating", page.LifecycleEvent.Method, page.FrameNavigated.Method, page.FrameStoppedLoading.Method, page.FrameDetached.Method, "Runtime.executionContextsCleared"}

// watchOOPIFs forwards, until stop, the navigation events of p's
// out-of-process frames to f.events.
func (f *frameWatch) watchOOPIFs(p *Page) (stop func()) {
	p.mu.Lock()
	t := p.oopifs
	p.mu.Unlock()
	if t == nil {
		return func() {}
	}
	ids, _ := t.all()
	done := make(chan struct{})
	stops := []func(){func() { close(done) }}
	for _, id := range ids {
		s := t.session(id)
		if s == nil {
			continue
		}
		// One feed per session keeps Chrome's order: a frame's stop
		// before its new document means no document came.
		ch, unsubscribe := s.SubscribeAll(oopifMethods...)
		stops = append(stops, unsubscribe)
		go func() {
			for raw := range ch {
				method, params := cdpconn.UntagEvent(raw)
				select {
				case f.events <- oopifEvent{frame: id, method: method, raw: params}:
				case <-done:
					return
				}
			}
		}()
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// oopif takes an event of an out-of-process frame's session and reports
// whether a frame's load finished with it.
func (f *frameWatch) oopif(ev oopifEvent) bool {
	switch ev.method {
	case page.FrameRequestedNavigation.Method:
		var e page.EventFrameRequestedNavigation
		if decode(ev.raw, &e) == nil {
			f.requested(e)
		}
	case "Page.frameStartedNavigating":
		var e page.EventFrameStartedNavigating
		if decode(ev.raw, &e) == nil {
			f.started(e)
		}
	case page.LifecycleEvent.Method:
		var e page.EventLifecycleEvent
		return decode(ev.raw, &e) == nil && f.lifecycle(e)
	case page.FrameNavigated.Method:
		var e page.EventFrameNavigated
		if decode(ev.raw, &e) == nil {
			f.navigated(e)
		}
	case page.FrameStoppedLoading.Method:
		var e page.EventFrameStoppedLoading
		return decode(ev.raw, &e) == nil && f.stopped(e.FrameID)
	case page.FrameDetached.Method:
		var e page.EventFrameDetached
		return decode(ev.raw, &e) == nil && f.detached(e.FrameID)
	default: // its document went away
		f.documentCleared(ev.frame)
	}
	return false
}

// followFrameLoads turns on, in an out-of-process frame's session, the
// events its navigations are followed by (requested, started, lifecycle):
// the frame's renderer reports them only there.
func followFrameLoads(ctx context.Context, s *Session) {
	if _, err := cdp.Call(ctx, s, page.Enable, page.EnableParams{}); err == nil {
		cdp.Call(ctx, s, page.SetLifecycleEventsEnabled, page.SetLifecycleEventsEnabledParams{Enabled: true})
	}
}

// outOfProcessFrames lists the page's out-of-process frames (none before
// a frame was looked into).
func (p *Page) outOfProcessFrames() []cdp.FrameID {
	p.mu.Lock()
	t := p.oopifs
	p.mu.Unlock()
	if t == nil {
		return nil
	}
	ids, _ := t.all()
	return ids
}
