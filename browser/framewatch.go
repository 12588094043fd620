package browser

import (
	"context"
	"slices"
	"strings"
	"time"

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
// where each went, for the answer (Effect.FramesNavigated), and, for the
// frames the page's own renderer hosts, their loads, so the answer shows
// the frame's new document rather than a frame half-way through loading.
// The top document's own navigation is actionWatch's.
type frameWatch struct {
	main cdp.FrameID
	// loading are the frames whose new document has not loaded yet.
	loading  map[cdp.FrameID]*loadWait
	deadline time.Time
	// urls are where the frames went, in order; oopifs, the out-of-process
	// frames whose document changed and whose URL is still to be read.
	urls   []string
	oopifs []cdp.FrameID
	// oopifURL is the last URL Chrome gave each out-of-process frame
	// during the action.
	oopifURL map[cdp.FrameID]string
	// events are the out-of-process frames' (see watchOOPIFs).
	events chan oopifEvent
}

func newFrameWatch(main cdp.FrameID) *frameWatch {
	return &frameWatch{main: main, loading: map[cdp.FrameID]*loadWait{}, oopifURL: map[cdp.FrameID]string{}, events: make(chan oopifEvent, 64)}
}

// requested takes a navigation a frame in the page's renderer asked for:
// its load is awaited from now (a javascript: URL or another tab's
// navigation loads nothing here).
func (f *frameWatch) requested(ev page.EventFrameRequestedNavigation) {
	if ev.FrameID == f.main || strings.HasPrefix(ev.URL, "javascript:") || ev.Disposition != page.ClientNavigationDispositionCurrentTab {
		return
	}
	if _, ok := f.loading[ev.FrameID]; !ok {
		f.await(&loadWait{frame: ev.FrameID, want: "load"})
	}
}

// sameDocument takes a same-document navigation: a frame whose requested
// navigation was one (a fragment link) loads nothing.
func (f *frameWatch) sameDocument(id cdp.FrameID) bool {
	if _, ok := f.loading[id]; !ok || id == f.main {
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

// started takes a navigation Chrome started in the page's renderer.
func (f *frameWatch) started(ev page.EventFrameStartedNavigating) {
	if ev.FrameID == f.main || ev.NavigationType == "sameDocument" || ev.NavigationType == "historySameDocument" {
		return
	}
	f.await(&loadWait{frame: ev.FrameID, loader: string(ev.LoaderID), want: "load"})
}

// lifecycle takes a lifecycle event and reports whether a frame's load
// finished with it.
func (f *frameWatch) lifecycle(ev page.EventLifecycleEvent) bool {
	l, ok := f.loading[ev.FrameID]
	if !ok || !l.see(ev) {
		return false
	}
	delete(f.loading, ev.FrameID)
	return true
}

// navigated takes a frame's new document in the page's renderer.
func (f *frameWatch) navigated(ev page.EventFrameNavigated) {
	if ev.Frame == nil || ev.Frame.ParentID == "" || ev.Type == page.NavigationTypeBackForwardCacheRestore {
		return
	}
	f.add(ev.Frame.URL)
}

// attached takes an iframe target that attached during the action: a
// frame that navigated to another site moved to a renderer of its own,
// whose load is not followed here.
func (f *frameWatch) attached(ev target.EventAttachedToTarget) bool {
	if ev.TargetInfo == nil || ev.TargetInfo.Type != "iframe" {
		return false
	}
	id := cdp.FrameID(ev.TargetInfo.TargetID)
	if _, ok := f.loading[id]; !ok {
		return false
	}
	delete(f.loading, id)
	f.oopifURL[id] = ev.TargetInfo.URL
	f.oopifs = append(f.oopifs, id)
	return true
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

func (f *frameWatch) add(u string) {
	if u != "" && !slices.Contains(f.urls, u) {
		f.urls = append(f.urls, u)
	}
}

// waiting reports whether a frame's load is still awaited, and for how
// long at most.
func (f *frameWatch) waiting() (time.Duration, bool) {
	if len(f.loading) == 0 {
		return 0, false
	}
	left := time.Until(f.deadline)
	return left, left > 0
}

// report returns where the frames went: the out-of-process frames' URLs
// are the last Chrome gave during the action, or read now.
func (f *frameWatch) report(ctx context.Context, b *Browser) []string {
	for _, id := range f.oopifs {
		u := f.oopifURL[id]
		if u == "" {
			rctx, cancel := brief(ctx)
			if info, err := cdp.Call(rctx, b.Session(), target.GetTargetInfo, target.GetTargetInfoParams{TargetID: target.ID(id)}); err == nil && info.TargetInfo != nil {
				u = info.TargetInfo.URL
			}
			cancel()
		}
		f.add(u)
	}
	return f.urls
}

// oopifEvent is an event of an out-of-process frame's session.
type oopifEvent struct {
	frame  cdp.FrameID
	method string
	raw    jsonv2.Value
}

// oopifMethods are the events followed in out-of-process frames' sessions.
var oopifMethods = []string{page.FrameRequestedNavigation.Method, "Page.frameStartedNavigating", page.LifecycleEvent.Method, page.FrameNavigated.Method, "Runtime.executionContextsCleared"}

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
		for _, method := range oopifMethods {
			ch, unsubscribe := s.Subscribe(method)
			stops = append(stops, unsubscribe)
			go func() {
				for raw := range ch {
					select {
					case f.events <- oopifEvent{frame: id, method: method, raw: raw}:
					case <-done:
						return
					}
				}
			}()
		}
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
