package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/network"
)

// DefaultMaxScrolls bounds scrollUntilVisible when no maxScrolls is given.
const DefaultMaxScrolls = 100

// FeedQuiet is how long the page must have stopped growing, with no
// request in flight, before scrollUntilVisible gives up at the end of it.
const FeedQuiet = time.Second

// feedPoll is how often the wait at the end of a feed looks again.
const feedPoll = 100 * time.Millisecond

// staleRequest is the age after which a request no longer counts as the
// feed loading (a long poll, a stream).
const staleRequest = 10 * time.Second

// feedState is the engine's answer to feedStep, feedStatus and feedReport.
type feedState struct {
	ScrollY      float64 `json:"scrollY"`
	ScrollHeight float64 `json:"scrollHeight"`
	AtEnd        bool    `json:"atEnd"`
	QuietMs      float64 `json:"quietMs"`
	Moved        bool    `json:"moved"`
	Busy         bool    `json:"busy"`
	Lost         bool    `json:"lost"`
	Added        int     `json:"added"`
	List         string  `json:"list"`
	Items        int     `json:"items"`
	// Above: some scroller did not stand at its top when the search
	// started (feedWatch); AtTop: every scroller is at its top
	// (feedStepUp).
	Above bool `json:"above"`
	AtTop bool `json:"atTop"`
	// AboveBy and BelowBy are how far the farthest scroller stood from
	// its top and from its end when the search started (feedWatch).
	AboveBy float64 `json:"aboveBy"`
	BelowBy float64 `json:"belowBy"`
	// Boxes are the scroll containers (other than the page) the search
	// scrolled, and where each stands (feedReport only).
	Boxes []feedBox `json:"boxes"`
}

// feedBox is a scroll container's position in feedReport.
type feedBox struct {
	Box          string  `json:"box"`
	ScrollY      float64 `json:"scrollY"`
	ScrollHeight float64 `json:"scrollHeight"`
}

// ScrollUntilFound scrolls step by step until the target exists (lazy
// lists, infinite scroll, virtualised lists): each step scrolls the page
// (or the pane that scrolls it) and every rendered scroll container that
// can still go down, since the content may scroll inside its own container.
// When all of them are at their end it keeps waiting while anything grows
// or requests are in flight, and ends the way down only once nothing has
// grown for FeedQuiet. When a scroller did not stand at its top, the
// content above is searched too, upward from where each stood: first when
// every scroller stood at its end or less lies above than below, after
// the way down otherwise. It gives up
// after maxScrolls scrolls in all (default DefaultMaxScrolls), or shortly
// before ctx ends. It returns true when found (the element scrolled to
// the centre); otherwise an ElementNotFoundError saying how far it got.
func (p *Page) ScrollUntilFound(ctx context.Context, t Target, maxScrolls int, distance float64) (bool, error) {
	if maxScrolls <= 0 {
		maxScrolls = DefaultMaxScrolls
	}
	deadline := time.Now().Add(defaultFindTimeout)
	if d, ok := ctx.Deadline(); ok {
		// Leave time for the action that follows and for the report.
		deadline = d.Add(-min(time.Until(d)/4, 2*time.Second))
	}
	var st feedState
	if err := p.engineCall(ctx, &st, epFeedWatch); err != nil {
		return false, fmt.Errorf("scrollUntilVisible: %w", err)
	}
	reqs := p.trackRequests(ctx)
	defer reqs.stop()
	f := &feedFind{p: p, t: t, reqs: reqs, deadline: deadline}
	found, why, err := f.search(ctx, st, maxScrolls, distance)
	if err != nil || found {
		p.engineCall(context.WithoutCancel(ctx), nil, epFeedReport)
		return found, err
	}
	return false, f.notFound(ctx, why)
}

// defaultFindTimeout bounds ScrollUntilFound when ctx has no deadline.
const defaultFindTimeout = 30 * time.Second

// feedFind is one scrollUntilVisible run.
type feedFind struct {
	p        *Page
	t        Target
	reqs     *requestTracker
	deadline time.Time
	scrolls  int
	// spent: the search reached maxScrolls or the step's time.
	spent bool
}

// search scrolls down, and up when there is content above (start is the
// state when the search started), until found; when not found, why says
// why it stopped.
func (f *feedFind) search(ctx context.Context, start feedState, maxScrolls int, distance float64) (found bool, why string, err error) {
	if !start.Above {
		return f.run(ctx, maxScrolls, distance)
	}
	first, second := f.run, f.runUp
	upFirst := start.AtEnd || start.AboveBy <= start.BelowBy
	if upFirst {
		// The shorter way first: every scroller stood at its end, or
		// less is above than below (a feed may still grow below, which
		// the way down waits for).
		first, second = f.runUp, f.run
	}
	found, why, err = first(ctx, maxScrolls, distance)
	if found || err != nil || f.spent {
		return found, why, err
	}
	found, why2, err := second(ctx, maxScrolls, distance)
	if found || err != nil || f.spent {
		return found, why2, err
	}
	if upFirst {
		return false, why2 + ", after searching up to the top of every scroller", nil
	}
	return false, why + ", and found nothing above either, back at the top of every scroller", nil
}

// limit says why the search must stop now (maxScrolls, the step's time),
// "" when it may go on.
func (f *feedFind) limit(maxScrolls int) string {
	switch {
	case f.scrolls >= maxScrolls:
		f.spent = true
		return fmt.Sprintf("after %d scrolls (maxScrolls)", f.scrolls)
	case time.Now().After(f.deadline):
		f.spent = true
		return "before the step timeout"
	}
	return ""
}

// feedCall runs one feed entry of the engine (what prefixes its errors) and
// turns a page that navigated meanwhile into a ContextDestroyed error.
func (f *feedFind) feedCall(ctx context.Context, what string, entry engineEntry, args ...any) (feedState, error) {
	var st feedState
	if err := f.p.engineCall(ctx, &st, entry, args...); err != nil {
		return st, fmt.Errorf("%s: %w", what, err)
	}
	if st.Lost {
		return st, Errorf(KindContextDestroyed, "the page navigated while scrolling for %s", f.t)
	}
	return st, nil
}

// runUp scrolls up from where each scroller stood until found or every
// scroller is at its top.
func (f *feedFind) runUp(ctx context.Context, maxScrolls int, distance float64) (found bool, why string, err error) {
	for {
		if found, err := f.lookFor(ctx); found || err != nil {
			return found, "", err
		}
		if why := f.limit(maxScrolls); why != "" {
			return false, why, nil
		}
		st, err := f.feedCall(ctx, "scrollUntilVisible: scroll up", epFeedStepUp, distance)
		if err != nil {
			return false, "", err
		}
		f.scrolls++
		if st.AtTop {
			found, err := f.lookFor(ctx)
			return found, "at the top of the page and of every scroll container", err
		}
	}
}

// run scrolls down until found; when not found, why says why it stopped.
func (f *feedFind) run(ctx context.Context, maxScrolls int, distance float64) (found bool, why string, err error) {
	for {
		if found, err := f.lookFor(ctx); found || err != nil {
			return found, "", err
		}
		if why := f.limit(maxScrolls); why != "" {
			return false, why, nil
		}
		st, err := f.feedCall(ctx, "scrollUntilVisible: scroll", epFeedStep, distance)
		if err != nil {
			return false, "", err
		}
		f.scrolls++
		if !st.AtEnd {
			continue
		}
		grew, why, err := f.waitAtEnd(ctx)
		if err != nil || !grew {
			if found, ferr := f.lookFor(ctx); found || ferr != nil {
				return found, "", ferr
			}
			return false, why, err
		}
	}
}

// waitAtEnd waits at the end of the page until it grows (more to scroll),
// the target appears, or the page stayed quiet for FeedQuiet with no
// request in flight — and still did half that long after a nudge.
func (f *feedFind) waitAtEnd(ctx context.Context) (grew bool, why string, err error) {
	var nudged time.Time
	for {
		st, err := f.feedCall(ctx, "scrollUntilVisible", epFeedStatus)
		if err != nil {
			return false, "", err
		}
		if !st.AtEnd {
			return true, "", nil
		}
		pending := f.reqs.pending()
		idle := pending == 0 && !st.Busy
		quiet := idle && st.QuietMs >= float64(FeedQuiet.Milliseconds())
		if idle && st.QuietMs >= float64(FeedQuiet.Milliseconds())/3 && nudged.IsZero() {
			// Before giving up, scroll up a little and back, once.
			if err := f.p.engineCall(ctx, nil, epFeedNudge); err != nil {
				return false, "", fmt.Errorf("scrollUntilVisible: %w", err)
			}
			nudged = time.Now()
			continue
		}
		if quiet && time.Since(nudged) >= FeedQuiet/2 {
			return false, fmt.Sprintf("at the end of the page and of every scroll container, which stopped growing (nothing added for %s, no request in flight, nothing aria-busy)", FeedQuiet), nil
		}
		if time.Now().After(f.deadline) {
			f.spent = true
			return false, fmt.Sprintf("before the step timeout, at the end of the page while it was still loading (%d requests in flight, busy %v)", pending, st.Busy), nil
		}
		if found, err := f.lookFor(ctx); found || err != nil {
			return false, "", err
		}
		if err := Sleep(ctx, feedPoll); err != nil {
			f.spent = true
			return false, "before the step timeout", nil
		}
	}
}

// lookFor reports whether the target exists, scrolling it to the centre
// when it does.
func (f *feedFind) lookFor(ctx context.Context) (bool, error) {
	el, _, err := f.p.locate(ctx, f.t)
	if err != nil || el == nil {
		return false, err
	}
	// The scroll waits for the page's scroll listeners (a virtualised
	// list renders its rows), so the action that follows does not.
	el.call(ctx, nil, epScrollIntoCenter)
	el.release()
	return true, nil
}

// notFound is the error when scrolling ended without the target: how far it
// got (scrolls, position, the feed's items).
func (f *feedFind) notFound(ctx context.Context, why string) error {
	var rep feedState
	f.p.engineCall(context.WithoutCancel(ctx), &rep, epFeedReport)
	msg := fmt.Sprintf("scrolled %d times and found no element for %s: stopped %s; scrollY %.0f of %.0f", f.scrolls, f.t, why, rep.ScrollY, rep.ScrollHeight)
	details := map[string]any{"scrolls": f.scrolls, "scrollY": rep.ScrollY, "scrollHeight": rep.ScrollHeight}
	if rep.List != "" {
		msg += fmt.Sprintf("; %s holds %d items (%d added while scrolling)", rep.List, rep.Items, rep.Added)
		details["list"], details["items"] = rep.List, rep.Items
	}
	for _, b := range rep.Boxes {
		msg += fmt.Sprintf("; scrolled %s to %.0f of %.0f", b.Box, b.ScrollY, b.ScrollHeight)
	}
	if len(rep.Boxes) > 0 {
		details["containers"] = rep.Boxes
	}
	e := Errorf(KindElementNotFound, "%s", msg).
		WithHint("the element is not in what the page loaded: check the target against a snapshot; raise maxScrolls or the step timeout for a longer feed")
	e.Details = details
	return e
}

// requestTracker counts the page's network requests in flight (Network
// domain events), for as long as it runs.
type requestTracker struct {
	p       *Page
	started <-chan jsonv2.Value
	ended   []<-chan jsonv2.Value
	stops   []func()
	open    map[network.RequestID]time.Time
	// done holds requests that ended, in case their end is read before
	// their start.
	done    map[network.RequestID]bool
	enabled bool
}

// trackRequests starts counting requests; when the Network domain cannot
// be enabled it counts none.
func (p *Page) trackRequests(ctx context.Context) *requestTracker {
	r := &requestTracker{p: p, open: map[network.RequestID]time.Time{}, done: map[network.RequestID]bool{}}
	sub := func(method string) <-chan jsonv2.Value {
		ch, stop := p.sess.Subscribe(method)
		r.stops = append(r.stops, stop)
		return ch
	}
	r.started = sub("Network.requestWillBeSent")
	r.ended = []<-chan jsonv2.Value{sub("Network.loadingFinished"), sub("Network.loadingFailed")}
	// The tab's network log keeps the domain on; only a tab without it
	// enables it here (and disables it again when done).
	if !p.Network().Recording() {
		if _, err := cdp.Call(ctx, p.sess, network.Enable, network.EnableParams{}); err == nil {
			r.enabled = true
		}
	}
	return r
}

// pending drains the events that arrived and returns how many requests are
// in flight (not counting event streams, nor requests open for longer than
// staleRequest).
func (r *requestTracker) pending() int {
	for {
		select {
		case raw := <-r.started:
			var ev network.EventRequestWillBeSent
			if decode(raw, &ev) == nil && !r.done[ev.RequestID] && ev.Type != network.ResourceTypeEventSource && ev.Type != network.ResourceTypeWebSocket {
				r.open[ev.RequestID] = time.Now()
			}
			continue
		default:
		}
		break
	}
	for _, ch := range r.ended {
		for drained := false; !drained; {
			select {
			case raw := <-ch:
				var ev struct {
					RequestID network.RequestID `json:"requestId"`
				}
				if decode(raw, &ev) == nil {
					delete(r.open, ev.RequestID)
					r.done[ev.RequestID] = true
				}
			default:
				drained = true
			}
		}
	}
	n := 0
	for _, at := range r.open {
		if time.Since(at) < staleRequest {
			n++
		}
	}
	return n
}

// stop ends the tracking.
func (r *requestTracker) stop() {
	if r.enabled {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cdp.Call(ctx, r.p.sess, network.Disable, cdp.Empty{})
		cancel()
	}
	for _, s := range r.stops {
		s()
	}
}

// WaitDOMQuiet waits until the DOM has not changed for stable, or timeout.
// It reports whether it got quiet.
func (p *Page) WaitDOMQuiet(ctx context.Context, stable, timeout time.Duration) (bool, error) {
	// The page goes on changing while this waits: a capture taken as the
	// action settled is not the page after it.
	p.dropCaptureAhead()
	if stable <= 0 {
		stable = 300 * time.Millisecond
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	var quiet bool
	err := p.CallInto(ctx, &quiet, `(stable, timeout) => new Promise((resolve) => {
		let last = performance.now();
		const obs = new MutationObserver(() => { last = performance.now(); });
		obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
		const start = performance.now();
		const tick = () => {
			const now = performance.now();
			if (now - last >= stable) { obs.disconnect(); resolve(true); return; }
			if (now - start >= timeout) { obs.disconnect(); resolve(false); return; }
			setTimeout(tick, Math.min(50, stable / 2));
		};
		tick();
	})`, stable.Milliseconds(), timeout.Milliseconds())
	if KindOf(err) == KindContextDestroyed {
		return true, nil
	}
	return quiet, err
}
