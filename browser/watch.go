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

// SettleWindow is how long after an action cdp-skill watches for a
// navigation or a new tab that the action starts asynchronously (an SPA
// router committing its URL on the next tick, a window.open in a timer).
const SettleWindow = 60 * time.Millisecond

// Effect is what an action caused besides its own result.
type Effect struct {
	Navigated bool     `json:"navigated,omitempty"`
	NewURL    string   `json:"newUrl,omitempty"`
	NewTabs   []NewTab `json:"newTabs,omitempty"`
	// Warning notes a navigation that did not finish loading in time.
	Warning string `json:"-"`
}

// NewTab is a tab an action opened (target=_blank, window.open).
type NewTab struct {
	Tab      string `json:"tab,omitempty"`
	TargetID string `json:"targetId"`
	URL      string `json:"url"`
	Title    string `json:"title,omitempty"`
}

// actionWatch observes one action's navigations and new tabs.
type actionWatch struct {
	p         *Page
	urlBefore string
	started   <-chan jsonv2.Value
	lifecycle <-chan jsonv2.Value
	sameDoc   <-chan jsonv2.Value
	created   <-chan jsonv2.Value
	changed   <-chan jsonv2.Value
	stops     []func()
}

var discoverOnce sync.Map // *Browser → struct{}

// watch starts observing before an action runs.
func (p *Page) watch(ctx context.Context) (*actionWatch, error) {
	if err := p.enableLifecycle(ctx); err != nil {
		return nil, err
	}
	if _, done := discoverOnce.Load(p.Browser); !done {
		if _, err := cdp.Call(ctx, p.Browser.Session(), target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err == nil {
			discoverOnce.Store(p.Browser, struct{}{})
		}
	}
	w := &actionWatch{p: p}
	w.urlBefore, _ = p.URL(ctx)
	sub := func(s *Session, method string) <-chan jsonv2.Value {
		ch, stop := s.Subscribe(method)
		w.stops = append(w.stops, stop)
		return ch
	}
	w.started = sub(p.sess, "Page.frameStartedNavigating")
	w.lifecycle = sub(p.sess, page.LifecycleEvent.Method)
	w.sameDoc = sub(p.sess, page.NavigatedWithinDocument.Method)
	w.created = sub(p.Browser.Session(), "Target.targetCreated")
	w.changed = sub(p.Browser.Session(), "Target.targetInfoChanged")
	return w, nil
}

func (w *actionWatch) stop() {
	for _, s := range w.stops {
		s()
	}
}

// finish waits for what the action started — at most the settle window
// for something to begin, then until a started navigation has loaded — and
// reports it.
func (w *actionWatch) finish(ctx context.Context, settle time.Duration) Effect {
	defer w.stop()
	p := w.p
	main := cdp.FrameID(p.TargetID)
	var eff Effect
	loader := ""
	crossDoc := false
	newTabs := map[target.ID]*NewTab{}
	var order []target.ID
	timer := time.NewTimer(settle)
	defer timer.Stop()
	loadDeadline := (<-chan time.Time)(nil)
wait:
	for {
		select {
		case <-ctx.Done():
			if crossDoc {
				eff.Warning = "the navigation the action started did not finish loading within the step timeout"
			}
			break wait
		case <-timer.C:
			if !crossDoc {
				break wait
			}
		case <-loadDeadline:
			eff.Warning = "the page the action navigated to was still loading"
			break wait
		case raw := <-w.started:
			var ev page.EventFrameStartedNavigating
			if decode(raw, &ev) != nil || ev.FrameID != main {
				continue
			}
			switch ev.NavigationType {
			case "sameDocument", "historySameDocument":
			default:
				crossDoc, loader = true, string(ev.LoaderID)
				if loadDeadline == nil {
					loadDeadline = time.After(30 * time.Second)
				}
			}
		case raw := <-w.lifecycle:
			var ev page.EventLifecycleEvent
			if decode(raw, &ev) != nil || ev.FrameID != main {
				continue
			}
			if ev.Name == "init" && crossDoc {
				loader = string(ev.LoaderID)
			}
			if crossDoc && ev.Name == "load" && (loader == "" || string(ev.LoaderID) == loader) {
				break wait
			}
		case <-w.sameDoc:
			// The URL is read below; keep the window open for a following
			// cross-document navigation.
		case raw := <-w.created:
			var ev target.EventTargetCreated
			if decode(raw, &ev) != nil || ev.TargetInfo == nil || ev.TargetInfo.Type != "page" || ev.TargetInfo.OpenerID != p.TargetID {
				continue
			}
			if _, seen := newTabs[ev.TargetInfo.TargetID]; !seen {
				order = append(order, ev.TargetInfo.TargetID)
			}
			newTabs[ev.TargetInfo.TargetID] = &NewTab{TargetID: string(ev.TargetInfo.TargetID), URL: ev.TargetInfo.URL, Title: ev.TargetInfo.Title}
			// Give the new tab a moment to get its real URL.
			timer.Reset(300 * time.Millisecond)
		case raw := <-w.changed:
			var ev target.EventTargetInfoChanged
			if decode(raw, &ev) != nil || ev.TargetInfo == nil {
				continue
			}
			if t, ok := newTabs[ev.TargetInfo.TargetID]; ok {
				t.URL, t.Title = ev.TargetInfo.URL, ev.TargetInfo.Title
				if blankURL(t.URL) {
					timer.Reset(300 * time.Millisecond)
				}
			}
		}
	}
	for _, id := range order {
		t := newTabs[id]
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
	rctx, cancel := brief(ctx)
	defer cancel()
	if after, err := p.URL(rctx); err == nil && after != "" {
		if Navigated(w.urlBefore, after) {
			eff.Navigated, eff.NewURL = true, after
		}
	} else if crossDoc {
		eff.Navigated = true
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
