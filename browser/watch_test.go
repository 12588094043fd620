package browser

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// watchSite serves pages whose buttons start their effects late: a timer,
// a request, a timer after a request.
func watchSite(t *testing.T) string {
	t.Helper()
	pages := map[string]string{
		"start.html": `<!doctype html><title>Start</title><main>
<button id="late-nav" onclick="setTimeout(() => { location.href = 'b.html' }, 100)">Later</button>
<button id="late-push" onclick="setTimeout(() => { history.pushState({}, '', 'pushed'); document.getElementById('out').textContent = 'pushed' }, 100)">Push later</button>
<button id="fetch-open" onclick="fetch('data.json').then(r => r.json()).then(d => window.open(d.url))">Open after fetch</button>
<button id="fetch-render" onclick="fetch('data.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = d.label })">Render after fetch</button>
<button id="slow-render" onclick="fetch('slow.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = d.label })">Render a slow body</button>
<button id="chain-render" onclick="fetch('data.json').then(r => r.json()).then(() => fetch('slow.json')).then(r => r.json()).then(d => { document.getElementById('out').textContent = 'chained ' + d.label })">Render a chained fetch</button>
<button id="frame-fetch" onclick="requestAnimationFrame(() => fetch('data.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = 'frame ' + d.label }))">Fetch in a frame</button>
<button id="xhr-render" onclick="const x = new XMLHttpRequest(); x.open('GET', 'data.json'); x.onload = () => { document.getElementById('out').textContent = 'xhr ' + JSON.parse(x.responseText).label }; x.send()">XHR</button>
<button id="late-render" onclick="setTimeout(() => { document.getElementById('out').textContent = 'step 1'; setTimeout(() => { document.getElementById('out').textContent = 'step 2' }, 30) }, 50)">Render later</button>
<button id="frame-render" onclick="requestAnimationFrame(() => requestAnimationFrame(() => { document.getElementById('out').textContent = 'two frames' }))">Render in frames</button>
<button id="far-timer" onclick="window.farFired = false; setTimeout(() => { window.farFired = true }, 20000)">Far timer</button>
<button id="noop" onclick="window.noops = (window.noops || 0) + 1">Nothing</button>
<p id="out"></p><late-widget></late-widget></main>
<script>customElements.define('late-widget', class extends HTMLElement { constructor() { super(); const b = document.createElement('button'); b.textContent = 'Shadow later'; b.addEventListener('click', () => setTimeout(() => { document.getElementById('out').textContent = 'from shadow' }, 80)); this.attachShadow({mode: 'open'}).append(b) } })</script>
<script>window.pageSetTimeout = setTimeout; window.pageFetch = fetch; window.pageSend = XMLHttpRequest.prototype.send; window.pageRAF = requestAnimationFrame; window.pageJSON = Response.prototype.json</script>`,
		"b.html": `<!doctype html><title>B</title><main>B page</main>`,
		"poll.html": `<!doctype html><title>Live prices</title><main><h1>Prices</h1>
<button id="noop" onclick="window.noops = (window.noops || 0) + 1">Nothing</button>
<button id="fetch-render" onclick="fetch('data.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = d.label })">Render after fetch</button>
<p id="out"></p><p id="price"></p></main>
<script>window.polls = 0; setInterval(() => fetch('data.json').then((r) => r.json()).then(() => { window.polls++; document.getElementById('price').textContent = 'tick ' + window.polls }), 50)</script>`,
		"c.html": `<!doctype html><title>C</title><main>C page</main>`,
		"live.html": `<!doctype html><title>Live</title><main><h1>Scores</h1>
<button id="go-live" onclick="fetch('data.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = d.label; setInterval(() => fetch('data.json').then(r => r.json()).then(() => { window.ticks = (window.ticks || 0) + 1 }), 50) })">Go live</button>
<button id="go-timed" onclick="fetch('data.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = d.label; const poll = () => setTimeout(() => fetch('data.json').then(r => r.json()).then(() => { window.ticks = (window.ticks || 0) + 1; poll() }), 50); poll() })">Go live with timers</button>
<p id="out"></p></main>`,
		"framed.html": `<!doctype html><title>Framed</title><main><h1>Desk</h1><iframe id="desk" title="Desk" src="start.html" style="width: 900px; height: 700px"></iframe></main>`,
		"busy.html": `<!doctype html><title>Busy</title><main>Another tab of the site, busy</main>
<script>setInterval(() => { const t = performance.now() + 25; while (performance.now() < t) {} }, 30); setInterval(() => fetch('data.json').then((r) => r.json()), 10)</script>`,
	}
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "slow.json" { // headers now, the body after the 300 ms idle window
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			select {
			case <-time.After(500 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			w.Write([]byte(`{"label": "slow body"}`))
			return
		}
		if name == "data.json" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"url": "c.html?via=fetch", "label": "loaded"}`))
			return
		}
		body, ok := pages[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}))
}

func openWatchSite(t *testing.T) (*Page, string) {
	t.Helper()
	base := watchSite(t)
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"start.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p, base
}

func TestClickNavigationStartedByTimer(t *testing.T) {
	p, base := openWatchSite(t)
	res := click(t, p, Target{Selector: "#late-nav"}, ClickOptions{})
	if !res.Navigated || res.NewURL != base+"b.html" || js(t, p, "document.title") != `"B"` {
		t.Fatalf("navigation 100 ms after the click: %+v, title %s", res.Effect, js(t, p, "document.title"))
	}
}

func TestClickSameDocumentNavigationStartedByTimer(t *testing.T) {
	p, base := openWatchSite(t)
	res := click(t, p, Target{Selector: "#late-push"}, ClickOptions{})
	if !res.Navigated || res.NewURL != base+"pushed" || js(t, p, "document.getElementById('out').textContent") != `"pushed"` {
		t.Fatalf("pushState 100 ms after the click: %+v", res.Effect)
	}
}

func TestClickWindowOpenAfterFetch(t *testing.T) {
	p, _ := openWatchSite(t)
	res := click(t, p, Target{Selector: "#fetch-open"}, ClickOptions{})
	for _, nt := range res.NewTabs {
		defer p.Browser.CloseTab(testCtx(t), targetIDOf(nt.TargetID))
	}
	if len(res.NewTabs) != 1 || !strings.HasSuffix(res.NewTabs[0].URL, "c.html?via=fetch") || res.Navigated {
		t.Fatalf("window.open after a fetch: %+v", res.Effect)
	}
}

// The answer after an action shows what the action's own timers and
// requests rendered.
func TestClickSettlesTimersAndRequests(t *testing.T) {
	p, _ := openWatchSite(t)
	out := func() string { return js(t, p, "document.getElementById('out').textContent") }
	click(t, p, Target{Selector: "#late-render"}, ClickOptions{})
	if got := out(); got != `"step 2"` {
		t.Errorf("after a click whose timers render twice: out = %s", got)
	}
	click(t, p, Target{Selector: "#frame-render"}, ClickOptions{})
	if got := out(); got != `"two frames"` {
		t.Errorf("after a click that renders two animation frames later: out = %s", got)
	}
	click(t, p, Target{Text: "Shadow later"}, ClickOptions{})
	if got := out(); got != `"from shadow"` {
		t.Errorf("after a click whose handler in a shadow root sets a timer: out = %s", got)
	}
	click(t, p, Target{Selector: "#fetch-render"}, ClickOptions{})
	if got := out(); got != `"loaded"` {
		t.Errorf("after a click that renders a fetch: out = %s", got)
	}
	click(t, p, Target{Selector: "#slow-render"}, ClickOptions{})
	if got := out(); got != `"slow body"` {
		t.Errorf("after a click that renders a fetch whose body comes 500 ms after its headers: out = %s", got)
	}
	click(t, p, Target{Selector: "#chain-render"}, ClickOptions{})
	if got := out(); got != `"chained slow body"` {
		t.Errorf("after a click whose fetch's data starts a second, slow fetch: out = %s", got)
	}
	click(t, p, Target{Selector: "#frame-fetch"}, ClickOptions{})
	if got := out(); got != `"frame loaded"` {
		t.Errorf("after a click that fetches in the next animation frame: out = %s", got)
	}
	click(t, p, Target{Selector: "#xhr-render"}, ClickOptions{})
	if got := out(); got != `"xhr loaded"` {
		t.Errorf("after a click that renders an XHR: out = %s", got)
	}
}

// Settling puts the page's own functions back and does not wait for a
// timer far beyond its bound.
func TestClickSettleLeavesPageAlone(t *testing.T) {
	p, _ := openWatchSite(t)
	click(t, p, Target{Selector: "#far-timer"}, ClickOptions{})
	if got := js(t, p, "window.farFired"); got != "false" {
		t.Errorf("a 20 s timer fired before the click returned: %s", got)
	}
	click(t, p, Target{Selector: "#noop"}, ClickOptions{})
	click(t, p, Target{Selector: "#fetch-render"}, ClickOptions{})
	if got := js(t, p, "[setTimeout, fetch, XMLHttpRequest.prototype.send, requestAnimationFrame, Response.prototype.json].map("+isNativeJS+").concat([typeof window.pageSetTimeout, window.noops])"); got != `[true,true,true,true,true,"function",1]` {
		t.Fatalf("page functions after settling (setTimeout, fetch, send, rAF, Response.json native; the page's saved one kept; one noop click) = %s", got)
	}
}

// A watch stopped without finishing (the action failed) puts the page's
// functions back at once.
func TestWatchStoppedEarlyRestoresPage(t *testing.T) {
	p, _ := openWatchSite(t)
	w, err := p.watch(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !w.armed || js(t, p, isNativeJS+"(setTimeout)") != "false" {
		t.Fatalf("watch not armed: armed=%v", w.armed)
	}
	w.stop()
	if got := js(t, p, "[setTimeout, fetch, requestAnimationFrame].map("+isNativeJS+")"); got != "[true,true,true]" {
		t.Fatalf("after stop: %s", got)
	}
}

// TestClickNavigationFromScheduledWork covers the navigations an action
// starts in a task of its own rather than in its event handlers: a form
// submission (by button, by requestSubmit, by form.submit()), a message
// the handler posted (a scheduler's next task, as React's), and a plain
// link. A settle that returned before those tasks would miss them.
func TestClickNavigationFromScheduledWork(t *testing.T) {
	base := servePages(t, map[string]string{
		"start.html": `<!doctype html><title>Start</title><main>
<form id="f" action="b.html"><input name="q" value="x"><button id="submit-button">Search</button></form>
<button id="form-submit" onclick="document.getElementById('f').submit()">Submit by script</button>
<button id="request-submit" onclick="document.getElementById('f').requestSubmit()">Request submit</button>
<button id="port-nav" onclick="const ch = new MessageChannel(); ch.port1.onmessage = () => { location.href = 'b.html?via=port' }; ch.port2.postMessage(0)">Port</button>
<button id="window-nav" onclick="window.postMessage('go', '*')">Window message</button>
<a id="link" href="b.html?via=link">Link</a></main>
<script>window.addEventListener('message', (e) => { if (e.data === 'go') location.href = 'b.html?via=window' })</script>`,
		"b.html": `<!doctype html><title>B</title><main>B page</main>`,
	})
	for _, id := range []string{"submit-button", "form-submit", "request-submit", "port-nav", "window-nav", "link"} {
		t.Run(id, func(t *testing.T) {
			p := openTestTab(t)
			if _, err := p.Navigate(testCtx(t), base+"start.html", WaitLoad); err != nil {
				t.Fatal(err)
			}
			res := click(t, p, Target{Selector: "#" + id}, ClickOptions{})
			if !res.Navigated || !strings.HasPrefix(res.NewURL, base+"b.html") || js(t, p, "document.title") != `"B"` {
				t.Fatalf("click #%s: %+v, title %s", id, res.Effect, js(t, p, "document.title"))
			}
		})
	}
}

// isNativeJS is a JavaScript function telling whether a function is the
// browser's own: "[native code]" source read the way a fingerprinting
// script reads it, and no prototype (every JavaScript function has one).
const isNativeJS = "((f) => Function.prototype.toString.call(f).includes('[native code]') && !Object.prototype.hasOwnProperty.call(f, 'prototype'))"

// TestClickThatSchedulesNothingPutsThePageBack checks that the quick
// settle of an action that scheduled nothing still undoes the watch: the
// page's own functions are back afterwards.
func TestClickThatSchedulesNothingPutsThePageBack(t *testing.T) {
	p, _ := openWatchSite(t)
	click(t, p, Target{Selector: "#noop"}, ClickOptions{})
	got := js(t, p, `[window.setTimeout, MessagePort.prototype.postMessage, window.postMessage, HTMLFormElement.prototype.submit].map(`+isNativeJS+`).concat([window.noops]).join()`)
	if got != `"true,true,true,true,1"` {
		t.Fatalf("after a click that scheduled nothing: %s", got)
	}
}

// TestClickDoesNotWaitForThePagesOwnPolls: on a page that polls its
// server every 50 ms, a click that starts nothing is not the polls'
// owner: its watch counts none of their requests (it waited up to a
// second for them before), and a click that fetches still counts its own
// and shows what it rendered.
func TestClickDoesNotWaitForThePagesOwnPolls(t *testing.T) {
	p, base := openWatchSite(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"poll.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	js(t, p, `new Promise((r) => { const t = setInterval(() => { if (window.polls >= 2) { clearInterval(t); r(true) } }, 10) })`)
	res, err := p.Click(ctx, Target{Selector: "#noop"}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.requests != 0 {
		t.Errorf("a click that starts nothing counted %d of the page's poll requests as its own", res.requests)
	}
	if got := js(t, p, "window.noops"); got != "1" {
		t.Errorf("noops = %s after one click", got)
	}
	res, err = p.Click(ctx, Target{Selector: "#fetch-render"}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.requests < 1 {
		t.Errorf("a click that fetches counted %d requests", res.requests)
	}
	if got := js(t, p, "document.getElementById('out').textContent"); got != `"loaded"` {
		t.Errorf("after a click that renders a fetch on a polling page: out = %s", got)
	}
}

// TestClickOnAPollingPageWhoseRendererIsBusy: tabs of one site share a
// renderer, so while other tabs keep it busy a poll that was due can run
// right after the click's events, before a posted message marks the end
// of their task. That poll was counted as the click's, and each next one
// in its idle window too: the click waited its 2 s bound and counted ~80
// requests, in 4 of 30 clicks. Every click here must count none.
func TestClickOnAPollingPageWhoseRendererIsBusy(t *testing.T) {
	p, base := openWatchSite(t)
	ctx := testCtx(t)
	for i := 0; i < 3; i++ {
		if _, err := openTestTab(t).Navigate(ctx, base+"busy.html", WaitLoad); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Navigate(ctx, base+"poll.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	js(t, p, `new Promise((r) => { const t = setInterval(() => { if (window.polls >= 2) { clearInterval(t); r(true) } }, 10) })`)
	const clicks = 30
	var adopted []int
	for i := 0; i < clicks; i++ {
		res, err := p.Click(ctx, Target{Selector: "#noop"}, ClickOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.requests != 0 {
			adopted = append(adopted, res.requests)
		}
	}
	if len(adopted) > 0 {
		t.Errorf("%d of %d clicks that start nothing counted the page's polls as their own (requests %v)", len(adopted), clicks, adopted)
	}
	if got := js(t, p, "window.noops"); got != "30" {
		t.Errorf("noops = %s after %d clicks", got, clicks)
	}
}

// TestClickThatStartsAPollingLoopWaitsForItsFirstResponse: a click that
// fetches, renders and then polls every 50 ms is settled once what it
// rendered is there; the loop's requests, each in the idle window of the
// one before, are followed a few deep (WATCH_CHAIN_DEPTH) and not to the
// settle's 2 s bound (~40 polls, 80 counted requests, before).
func TestClickThatStartsAPollingLoopWaitsForItsFirstResponse(t *testing.T) {
	for _, button := range []string{"#go-live", "#go-timed"} {
		t.Run(button, func(t *testing.T) { clickStartingAPoll(t, button) })
	}
}

// clickStartingAPoll clicks a button of live.html that fetches, renders
// and then polls (with setInterval, or setTimeout after each response).
func clickStartingAPoll(t *testing.T, button string) {
	p, base := openWatchSite(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"live.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	res, err := p.Click(ctx, Target{Selector: button}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "document.getElementById('out').textContent"); got != `"loaded"` {
		t.Errorf("after the click: out = %s", got)
	}
	t.Logf("the click counted %d requests", res.requests)
	// The click's fetch and body, and at most four polls with theirs.
	if res.requests < 2 || res.requests > 10 {
		t.Errorf("the click counted %d requests; want its own 2 and at most 8 of the loop's", res.requests)
	}
	js(t, p, `new Promise((r) => { const t0 = window.ticks || 0; const t = setInterval(() => { if ((window.ticks || 0) > t0 + 2) { clearInterval(t); r(true) } }, 10) })`)
}

// TestClickInASameSiteFrameSettlesItsWork: a click on a button inside a
// same-site iframe is settled on what it set off in that frame (a fetch,
// then a render), as at the top level.
func TestClickInASameSiteFrameSettlesItsWork(t *testing.T) {
	p, base := openWatchSite(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"framed.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, s.YAML, `button "Render after fetch"`)
	for _, target := range []Target{{Ref: ref}, {Text: "Render after fetch"}} {
		frameJS(t, p, ref, "document.getElementById('out').textContent = ''")
		restore := scopeStep(ctx)
		res, err := p.Click(ctx, target, ClickOptions{})
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if got := frameJS(t, p, ref, "document.getElementById('out').textContent"); got != `"loaded"` {
			t.Errorf("after a click in the frame by %+v: out = %s (%+v)", target, got, res.Effect)
		}
	}
}
