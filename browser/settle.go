package browser

import (
	"context"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// settling is one action's wait for what it set off (actionWatch.finish):
// the page settling, a navigation of the top document, new tabs, and the
// frames' navigations (frameWatch). Each event of the watch's feeds moves
// it on; step reads one.
type settling struct {
	w     *actionWatch
	main  cdp.FrameID
	grace time.Duration
	eff   Effect
	// settled gives the page's settle report; pageDone says it came.
	settled  <-chan settleReport
	pageDone bool
	// navigating says the main frame navigated (Chrome's events, not the
	// page's own world, which could claim anything): only then is the URL
	// read again.
	navigating bool
	// crossDoc says a new top document is loading; load follows it, and
	// committed says it is there; loadDeadline bounds the wait for it.
	crossDoc, committed bool
	load                *loadWait
	loadDeadline        <-chan time.Time
	// navWait is when the wait for a navigation the page requested (to
	// start, or to open its tab) ends; tabWait, for new tabs' URLs.
	navWait, tabWait time.Time
	// newTabs are the tabs the action opened, in order.
	newTabs map[target.ID]*NewTab
	order   []target.ID
	// downloads are the URLs of navigations that became downloads.
	downloads map[string]bool
	timer     *time.Timer
	// lingered says the wait went on after the page settled (for a
	// navigation, a tab or a frame the action started): the page then is
	// not the page as it settled.
	lingered bool
}

func (w *actionWatch) newSettling(ctx context.Context, grace time.Duration) *settling {
	s := &settling{w: w, main: cdp.FrameID(w.p.TargetID), grace: grace, settled: w.presettled,
		newTabs: map[target.ID]*NewTab{}, downloads: map[string]bool{}, timer: time.NewTimer(time.Hour)}
	if s.settled == nil {
		s.settled = w.settlePageSignal(ctx, w.p.sendCaptureAhead(ctx, w))
	}
	return s
}

// step reads one event and reports whether the wait is over.
func (s *settling) step(ctx context.Context) bool {
	w := s.w
	select {
	case <-ctx.Done():
		if s.crossDoc {
			s.eff.Warning = "the navigation the action started did not finish loading within the step timeout"
		}
		return true
	case rep := <-s.settled:
		s.settled, s.pageDone = nil, true
		s.eff.requests = rep.Requests
		if rep.err != nil && KindOf(rep.err) != KindContextDestroyed && ctx.Err() == nil && !s.navigating {
			w.blocked = true
		}
		s.rearm()
	case <-s.timer.C:
		return s.timeUp()
	case <-s.loadDeadline:
		s.eff.Warning = "the page the action navigated to was still loading"
		return true
	case raw := <-w.pageEvents.ch:
		return s.onPageEvent(w.pageEvents.next(raw))
	case raw := <-w.download.ch:
		s.onDownload(w.download.next(raw))
	case ev := <-w.frames.events:
		if w.frames.oopif(ev) {
			s.rearm()
		}
	case raw := <-w.created.ch:
		s.onTabCreated(w.created.next(raw))
	case raw := <-w.changed.ch:
		s.onTargetChanged(w.changed.next(raw))
	}
	return false
}

// onPageEvent takes an event of the page's session (pageEventMethods) and
// reports whether the wait is over.
func (s *settling) onPageEvent(raw jsonv2.Value) bool {
	method, params := cdpconn.UntagEvent(raw)
	w := s.w
	switch method {
	case page.FrameRequestedNavigation.Method:
		s.onRequested(params)
	case "Page.frameStartedNavigating":
		s.onStarted(params)
	case page.LifecycleEvent.Method:
		return s.onLifecycle(params)
	case page.NavigatedWithinDocument.Method:
		s.onSameDocument(params)
	case page.FrameNavigated.Method:
		s.onNavigated(params)
	case page.FrameStoppedLoading.Method:
		s.onStopped(params)
	case page.FrameAttached.Method:
		var ev page.EventFrameAttached
		if decode(params, &ev) == nil {
			w.frames.frameAttached(ev.FrameID)
		}
	case page.FrameDetached.Method:
		var ev page.EventFrameDetached
		if decode(params, &ev) == nil && w.frames.detached(ev.FrameID) {
			s.rearm()
		}
	case target.AttachedToTarget.Method:
		var ev target.EventAttachedToTarget
		if decode(params, &ev) == nil && w.frames.attached(ev) {
			s.rearm()
		}
	}
	return false
}

// rearm sets the timer that ends the wait once the page has settled: the
// grace, or longer while a requested navigation or a new tab's URL is
// awaited.
func (s *settling) rearm() {
	if !s.pageDone || s.crossDoc {
		return
	}
	d := s.grace
	for _, until := range []time.Time{s.navWait, s.tabWait} {
		if r := time.Until(until); r > d {
			d, s.lingered = r, true
		}
	}
	s.timer.Reset(d)
}

// timeUp is the timer's end: the wait is over unless events are still on
// their way or a frame's new document is still awaited.
func (s *settling) timeUp() bool {
	if s.crossDoc || !s.pageDone {
		return false
	}
	if s.w.unread() {
		// Events Chrome sent before the page settled are still on their
		// way here: read them first.
		s.timer.Reset(time.Millisecond)
		return false
	}
	if left, ok := s.w.frames.waiting(); ok {
		s.timer.Reset(left)
		s.lingered = true
		return false
	}
	return true
}

func (s *settling) onRequested(raw jsonv2.Value) {
	var ev page.EventFrameRequestedNavigation
	if decode(raw, &ev) != nil {
		return
	}
	if ev.FrameID != s.main {
		s.w.frames.requested(ev)
		return
	}
	if strings.HasPrefix(ev.URL, "javascript:") || ev.Disposition == page.ClientNavigationDispositionCurrentTab && !Navigated(s.w.urlBefore, ev.URL) && strings.Contains(ev.URL, "#") {
		return // a fragment link or javascript: URL: no load follows
	}
	s.navWait, s.navigating = time.Now().Add(navStartBound), true
	s.rearm()
}

func (s *settling) onStarted(raw jsonv2.Value) {
	var ev page.EventFrameStartedNavigating
	if decode(raw, &ev) != nil {
		return
	}
	if ev.FrameID != s.main {
		s.w.frames.started(ev)
		return
	}
	if s.downloads[ev.URL] {
		return // (a navigation read after it became a download)
	}
	s.navigating = true
	switch ev.NavigationType {
	case "sameDocument", "historySameDocument":
	default:
		s.navWait = time.Time{}
		s.crossDoc, s.committed = true, false
		s.load = &loadWait{frame: s.main, loader: string(ev.LoaderID), want: "load"}
		if s.loadDeadline == nil {
			s.loadDeadline = time.After(30 * time.Second)
		}
	}
}

// onLifecycle reports whether the new top document has loaded.
func (s *settling) onLifecycle(raw jsonv2.Value) bool {
	var ev page.EventLifecycleEvent
	if decode(raw, &ev) != nil {
		return false
	}
	if ev.FrameID != s.main {
		if s.w.frames.lifecycle(ev) {
			s.rearm()
		}
		return false
	}
	return s.crossDoc && s.load.see(ev)
}

func (s *settling) onSameDocument(raw jsonv2.Value) {
	var ev page.EventNavigatedWithinDocument
	if decode(raw, &ev) == nil && s.w.frames.sameDocument(ev.FrameID) {
		s.rearm()
		return
	}
	// The URL is read at the end. A same-document navigation ends the
	// wait for a requested one.
	s.navWait, s.navigating = time.Time{}, true
	s.rearm()
}

func (s *settling) onDownload(raw jsonv2.Value) {
	var ev struct {
		FrameID cdp.FrameID `json:"frameId"`
		URL     string      `json:"url"`
	}
	if decode(raw, &ev) != nil {
		return
	}
	if ev.FrameID != s.main {
		if s.w.frames.done(ev.FrameID) {
			s.rearm()
		}
		return
	}
	s.downloads[ev.URL] = true
	// The navigation turned into a download: no document will commit or
	// load, so there is nothing more to wait for.
	s.crossDoc, s.navWait, s.loadDeadline = false, time.Time{}, nil
	s.rearm()
}

func (s *settling) onNavigated(raw jsonv2.Value) {
	var ev page.EventFrameNavigated
	if decode(raw, &ev) != nil || ev.Frame == nil {
		return
	}
	if ev.Frame.ID == s.main {
		s.committed = true
	}
	s.w.frames.navigated(ev)
}

// onStopped takes a frame that stopped loading: one whose navigation
// started and committed no document ended with none.
func (s *settling) onStopped(raw jsonv2.Value) {
	var ev page.EventFrameStoppedLoading
	if decode(raw, &ev) != nil {
		return
	}
	if ev.FrameID != s.main {
		if s.w.frames.stopped(ev.FrameID) {
			s.rearm()
		}
		return
	}
	if s.crossDoc && !s.committed {
		// The navigation ended without a new document (a 204 answer, a
		// cancelled load): the page stays.
		s.crossDoc, s.loadDeadline = false, nil
		s.rearm()
	}
}

func (s *settling) onTabCreated(raw jsonv2.Value) {
	var ev target.EventTargetCreated
	if decode(raw, &ev) != nil || ev.TargetInfo == nil || ev.TargetInfo.Type != "page" || ev.TargetInfo.OpenerID != s.w.p.TargetID {
		return
	}
	id := ev.TargetInfo.TargetID
	if _, seen := s.newTabs[id]; !seen {
		s.order = append(s.order, id)
	}
	s.newTabs[id] = &NewTab{TargetID: string(id), URL: ev.TargetInfo.URL, Title: ev.TargetInfo.Title}
	// Give the new tab a moment to get its real URL (the wait ends as soon
	// as it has one; only a tab that stays blank, such as window.open(''),
	// waits the whole bound).
	s.navWait = time.Time{}
	if blankURL(ev.TargetInfo.URL) {
		s.tabWait = time.Now().Add(newTabURLBound)
	}
	s.rearm()
}

func (s *settling) onTargetChanged(raw jsonv2.Value) {
	var ev target.EventTargetInfoChanged
	if decode(raw, &ev) != nil || ev.TargetInfo == nil {
		return
	}
	s.w.frames.targetChanged(ev.TargetInfo)
	t, ok := s.newTabs[ev.TargetInfo.TargetID]
	if !ok {
		return
	}
	t.URL, t.Title = ev.TargetInfo.URL, ev.TargetInfo.Title
	for _, t := range s.newTabs {
		if blankURL(t.URL) {
			s.rearm()
			return
		}
	}
	s.tabWait = time.Time{}
	s.rearm()
}

// effect is what the wait saw: new tabs (their URLs asked for once more
// when still blank), the top document's navigation (its URL read again
// only when Chrome said it navigated), the frames' navigations, and a
// warning.
func (s *settling) effect(ctx context.Context, began time.Time) Effect {
	w, p, eff := s.w, s.w.p, s.eff
	for _, id := range s.order {
		t := s.newTabs[id]
		if blankURL(t.URL) {
			// Still loading: ask once more for its URL.
			rctx, cancel := brief(ctx)
			if info, err := cdp.Call(rctx, p.Browser.Session(), target.GetTargetInfo, target.GetTargetInfoParams{TargetID: id}); err == nil && info.TargetInfo != nil {
				t.URL, t.Title = info.TargetInfo.URL, info.TargetInfo.Title
			}
			cancel()
		}
		eff.NewTabs = append(eff.NewTabs, *t)
	}
	if w.blocked && eff.Warning == "" {
		eff.Warning = "the page's own JavaScript kept cdp-skill from watching what the action set off (its timers and requests), so this answer may come before the page finished reacting; take a snapshot to see the page now"
	}
	after := w.urlBefore
	if s.navigating || after == "" {
		rctx, cancel := brief(ctx)
		defer cancel()
		var err error
		if after, err = p.URL(rctx); err != nil {
			after = ""
		}
	}
	eff.Settled = time.Since(began)
	if after != "" {
		if Navigated(w.urlBefore, after) {
			eff.Navigated, eff.NewURL = true, after
		}
	} else if s.crossDoc {
		eff.Navigated = true
	}
	if !eff.Navigated {
		// (The frames of a new top document are that document's.)
		var warning string
		eff.FramesNavigated, warning = w.frames.report(ctx, p.Browser)
		if eff.Warning == "" {
			eff.Warning = warning
		}
	}
	return eff
}
