package browser

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// SettleWindow is how long, once the page has settled after an action,
// cdp-skill still watches for browser-side consequences the browser has
// not reported yet. Settling itself follows what the page does (see
// actionWatch.finish), not a clock.
const SettleWindow = 0 * time.Millisecond

// newTabURLBound bounds the wait for a tab the action opened to get its
// URL (a loaded machine can take several hundred milliseconds).
const newTabURLBound = time.Second

// navStartBound bounds the wait for a navigation the page requested to
// start, or for the tab it asked to open to appear.
const navStartBound = 2 * time.Second

// Effect is what an action caused besides its own result.
type Effect struct {
	Navigated bool     `json:"navigated,omitempty"`
	NewURL    string   `json:"newUrl,omitempty"`
	NewTabs   []NewTab `json:"newTabs,omitempty"`
	// FramesNavigated are the URLs the action's iframes went to (a link
	// or form inside a frame); the top document's is NewURL.
	FramesNavigated []string `json:"framesNavigated,omitempty"`
	// Warning notes a navigation that did not finish loading in time.
	Warning string `json:"-"`
	// Settled is how long the action waited for what it started (for
	// benchmarks; not in the answer).
	Settled time.Duration `json:"-"`
	// requests are the requests the in-page watch counted as the action's.
	requests int
}

// NavigatedFrames returns the URLs the action's iframes went to.
func (e Effect) NavigatedFrames() []string { return e.FramesNavigated }

// NewTab is a tab an action opened (target=_blank, window.open).
type NewTab struct {
	Tab      string `json:"tab,omitempty"`
	TargetID string `json:"targetId"`
	URL      string `json:"url"`
	Title    string `json:"title,omitempty"`
}

// actionWatch observes one action's navigations and new tabs.
type actionWatch struct {
	p *Page
	// frame is the frame the watch was armed in (nil: the top document).
	frame     *frameRef
	urlBefore string
	armed     bool
	// blocked says the page kept the in-page watch from arming.
	blocked  bool
	settling bool
	// pageEvents are the page session's navigation and frame events
	// (pageEventMethods), tagged, in the order Chrome sent them: a frame's
	// stop is read after its navigation, a load after its start.
	pageEvents *eventFeed
	// created, changed and download are the browser session's.
	created  *eventFeed
	changed  *eventFeed
	download *eventFeed
	// frames follows the page's frames' navigations.
	frames *frameWatch
	stops  []func()
	// presettled holds the page's settle report when the action already
	// settled in its own last round trip (a click reads its probe and
	// settles at once).
	presettled <-chan settleReport
}

// rearm arms the page's watch again after a settle that belonged to a
// press that missed (the fallback click that follows is what finish
// waits for).
func (w *actionWatch) rearm(ctx context.Context) {
	w.presettled = nil
	w.settling = false
	w.armed = w.p.watchCall(ctx, nil, wpWatchArm) == nil
}

// eventFeed is one subscription and how many of its events were read.
type eventFeed struct {
	ch       <-chan jsonv2.Value
	received func() int64
	read     int64
}

// next counts an event read from the feed and returns it.
func (f *eventFeed) next(raw jsonv2.Value) jsonv2.Value {
	f.read++
	return raw
}

// unread reports events that arrived but were not read yet.
func (w *actionWatch) unread() bool {
	for _, f := range []*eventFeed{w.pageEvents, w.created, w.changed, w.download} {
		if f.received() > f.read {
			return true
		}
	}
	return false
}

var discoverOnce sync.Map // *Browser → struct{}

// pageEventMethods are the page session's events an action's watch reads
// (settling.onPageEvent).
var pageEventMethods = []string{
	page.FrameRequestedNavigation.Method, "Page.frameStartedNavigating", page.LifecycleEvent.Method,
	page.NavigatedWithinDocument.Method, page.FrameNavigated.Method, page.FrameStoppedLoading.Method,
	page.FrameAttached.Method, page.FrameDetached.Method, target.AttachedToTarget.Method,
}

// watch starts observing before an action runs: it subscribes to the
// navigation and target events and arms the in-page watch (watch.js) that
// counts the timers and requests the action starts.
func (p *Page) watch(ctx context.Context) (*actionWatch, error) {
	p.runBeforeChange(ctx)
	return p.watchWith(ctx, true)
}

// watchWith is watch; whole false leaves out the engine's change log and
// the URL read, which the action's check makes when it finds the element
// ready (checkLast with changes, see startWatch).
func (p *Page) watchWith(ctx context.Context, whole bool) (*actionWatch, error) {
	p.dropSentCaptureAhead()
	if _, done := discoverOnce.Load(p.Browser); !done {
		// Turning discovery on announces every tab there is (targetCreated):
		// on before the watch listens, so that only the tabs the action
		// opens reach it (a fresh connection's first action).
		if _, err := cdp.Call(ctx, p.Browser.Session(), target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err == nil {
			discoverOnce.Store(p.Browser, struct{}{})
		}
	}
	w := &actionWatch{p: p, frame: p.frameIn(ctx)}
	sub := func(s *Session, method string) *eventFeed {
		ch, received, stop := s.SubscribeCounted(method)
		w.stops = append(w.stops, stop)
		return &eventFeed{ch: ch, received: received}
	}
	ch, received, stop := p.sess.SubscribeAllCounted(pageEventMethods...)
	w.stops = append(w.stops, stop)
	w.pageEvents = &eventFeed{ch: ch, received: received}
	w.created = sub(p.Browser.Session(), "Target.targetCreated")
	w.changed = sub(p.Browser.Session(), "Target.targetInfoChanged")
	w.download = sub(p.Browser.Session(), "Browser.downloadWillBegin")
	w.frames = newFrameWatch(cdp.FrameID(p.TargetID))
	w.stops = append(w.stops, w.frames.watchOOPIFs(p))
	// The calls go out together: every round trip here delays the action
	// after its target was measured. A page whose engine cannot arm still
	// gets the events; it only settles without knowing its timers and
	// requests.
	lifecycle, armed, logging := make(chan error, 1), make(chan error, 1), make(chan struct{})
	go func() { lifecycle <- p.enableLifecycle(ctx) }()
	go func() { armed <- p.watchCall(ctx, nil, wpWatchArm) }()
	go func() {
		// What the action changes is logged in the engine's world, where
		// the page cannot rewrite it.
		if whole {
			p.engineCall(ctx, nil, epChangeWatch)
			p.noteFrameLog(ctx)
		}
		close(logging)
	}()
	if whole {
		w.urlBefore, _ = p.URL(ctx)
	}
	armErr := <-armed
	w.armed = armErr == nil
	// The page's own JavaScript can keep the watch out of its world (it
	// lives there to see the page's timers): say so rather than answer
	// early without a word. A page that navigated away meanwhile is not
	// such a page.
	w.blocked = armErr != nil && KindOf(armErr) != KindContextDestroyed && ctx.Err() == nil
	<-logging
	if err := <-lifecycle; err != nil {
		w.stop()
		return nil, err
	}
	return w, nil
}

// pendingWatch is an action's watch being armed while the action's target
// is checked: its calls go out right behind the lookup and check, in the
// same round trip (ActionOptions.watch).
type pendingWatch struct {
	done chan struct{}
	w    *actionWatch
}

// startWatch arms the action's watch in the background, but for the
// engine's change log and the URL before the action: the check that finds
// the element ready starts the log and reads the URL (checkLast with
// changes), and take completes the watch with them.
func (p *Page) startWatch(ctx context.Context) *pendingWatch {
	s := &pendingWatch{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.w, _ = p.watchWith(ctx, false)
	}()
	return s
}

// take waits for the watch to be armed and completes it with what the
// check c did: the change log it started when it passed, and the URL it
// read in the top frame. Nil when the watch could not be armed (the
// action arms its own, which says why).
func (s *pendingWatch) take(ctx context.Context, c checkResult) *actionWatch {
	if s == nil {
		return nil
	}
	<-s.done
	w := s.w
	if w == nil {
		return nil
	}
	if !sameFrame(w.frame, frameOf(ctx)) {
		// The lookup found the target in another frame than the one the
		// watch was armed in (a text target found in an iframe): the
		// action arms its own there.
		w.stop()
		return nil
	}
	if !c.Changes {
		// The check did not run with the lookup (or forced, did not
		// pass): the log starts now.
		w.p.engineCall(ctx, nil, epChangeWatch)
	}
	w.p.noteFrameLog(ctx)
	w.urlBefore = c.URL
	if c.URL == "" {
		w.urlBefore, _ = w.p.URL(ctx)
	}
	return w
}

// sameFrame reports whether a and b are the same frame (nil: the top
// document).
func sameFrame(a, b *frameRef) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.id == b.id && a.sess == b.sess
}

// abandon stops a watch the action will not use.
func (s *pendingWatch) abandon() {
	if s == nil {
		return
	}
	<-s.done
	if s.w != nil {
		s.w.stop()
	}
}

// stop ends the watch. When the action failed before finish, the page's
// own functions are put back at once (watch.js would otherwise keep its
// wrappers until the next action or its expiry).
func (w *actionWatch) stop() {
	for _, s := range w.stops {
		s()
	}
	if w.armed && !w.settling {
		w.settling = true
		ctx, cancel := context.WithTimeout(inFrame(context.Background(), w.frame), cleanupBudget)
		w.p.watchCall(ctx, nil, wpWatchDisarm)
		cancel()
	}
}

// settleReport is what the in-page watch saw (for debugging and tests).
type settleReport struct {
	Armed     bool `json:"armed"`
	Ms        int  `json:"ms"`
	Mutations int  `json:"mutations"`
	Requests  int  `json:"requests"`
	err       error
}

// settleBound bounds the in-page settle (its own bounds are shorter) for
// a page too busy to answer.
const settleBound = 3 * time.Second

// settlePageSignal waits in the page for the action's timers, requests and
// DOM mutations (watch.js) and, once settled, signals the capture sent
// ahead (sendCaptureAhead) under signal, when not "". It returns at once
// when the watch is not armed.
func (w *actionWatch) settlePageSignal(ctx context.Context, signal string) <-chan settleReport {
	done := make(chan settleReport, 1)
	w.settling = true
	if !w.armed {
		done <- settleReport{}
		return done
	}
	go func() {
		sctx, cancel := context.WithTimeout(ctx, settleBound)
		defer cancel()
		var rep settleReport
		if signal == "" {
			rep.err = w.p.watchCall(sctx, &rep, wpWatchSettle)
		} else {
			rep.err = w.p.watchCall(sctx, &rep, wpWatchSettle, signal)
			if rep.err != nil {
				// Not settled (the step's time ran out, the page went):
				// the capture is read when the action is done.
				w.p.dropCaptureAhead()
			} else {
				w.p.fireCaptureAhead(context.WithoutCancel(ctx), signal)
			}
		}
		done <- rep
	}()
	return done
}

// finish waits for what the action started and reports it. It follows
// events, not a clock: the page settles (timers the action set, requests it
// started and the network's idle window, DOM mutations quieting: see
// watch.js); a navigation the page requested is waited for until it starts
// and then until it has loaded; a new tab until it has its URL. grace is
// how long to keep watching after the page has settled, for consequences
// the browser reports late.
func (w *actionWatch) finish(ctx context.Context, grace time.Duration) Effect {
	defer w.stop()
	began := time.Now()
	s := w.newSettling(ctx, grace)
	defer s.timer.Stop()
	for !s.step(ctx) {
	}
	eff := s.effect(ctx, began)
	if s.lingered || eff.Navigated || len(eff.NewTabs) > 0 || len(eff.FramesNavigated) > 0 || eff.Warning != "" {
		// A capture taken as the page settled (CaptureAhead) is not the
		// page now.
		w.p.dropCaptureAhead()
	}
	return eff
}

// Navigated reports whether origin, path or query changed (a hash-only
// change is not a navigation, spec §14.3).
func Navigated(before, after string) bool {
	strip := func(u string) string {
		if i := strings.IndexByte(u, '#'); i >= 0 {
			return u[:i]
		}
		return u
	}
	return strip(before) != strip(after)
}

func blankURL(u string) bool { return u == "" || u == "about:blank" }
