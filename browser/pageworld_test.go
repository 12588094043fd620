package browser

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// pageWorldPage has a role-less card with a click listener, a field and a
// button whose handler starts a short timer and a fetch (so the action
// watch wraps them while the click settles).
const pageWorldPage = `<!doctype html><title>World</title><main><h1>World</h1>
<div id="card">Open card</div>
<label>Name <input id="name"></label>
<button id="go">Go</button>
<p id="out"></p>
</main>
<script>
window.hits = 0;
document.getElementById('card').addEventListener('click', () => { window.hits++; });
document.getElementById('go').addEventListener('click', () => {
  setTimeout(() => { document.getElementById('out').textContent = 'went'; }, 20);
  fetch(location.href).catch(() => {});
});
</script>`

// pageWorldState is what the page's own world shows of cdp-skill.
type pageWorldState struct {
	Names   []string `json:"names"`
	Symbols int      `json:"symbols"`
	Natives []string `json:"natives"`
	Hits    int      `json:"hits"`
	Out     string   `json:"out"`
	Name    string   `json:"name"`
}

// readPageWorld lists, in the page's world, the window's own names that
// look like cdp-skill's (or a channel's random name), its own symbols,
// and the built-ins the engine once patched or wraps while acting that
// are not native now.
func readPageWorld(t *testing.T, p *Page) pageWorldState {
	t.Helper()
	raw, err := p.Eval(testCtx(t), `({
		names: Object.getOwnPropertyNames(window).filter(n => /cdp|skill/i.test(n) || /^_[0-9a-f]{16}$/.test(n)),
		symbols: Object.getOwnPropertySymbols(window).length,
		natives: [
			...Object.entries({
				addEventListener: EventTarget.prototype.addEventListener,
				onclick: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick').set,
			}).filter(([k, f]) => !Function.prototype.toString.call(f).includes('[native code]')).map(([k]) => k),
			// The start-up watch's gates stay only in the references the
			// page's scripts kept (watch.js gateAll).
			...Object.entries({
				setTimeout: window.setTimeout, fetch: window.fetch, requestAnimationFrame: window.requestAnimationFrame,
				send: XMLHttpRequest.prototype.send, postMessage: window.postMessage,
			}).filter(([k, f]) => !Function.prototype.toString.call(f).includes('[native code]')).map(([k]) => k),
		],
		hits: window.hits,
		out: document.getElementById('out').textContent,
		name: document.getElementById('name').value,
	})`)
	if err != nil {
		t.Fatal(err)
	}
	var st pageWorldState
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return st
}

// TestEngineLeavesNothingInThePageWorld (issue 31, item 12): after a
// snapshot, a click, a fill, a pageFunction that takes refs and returns
// elements, a poll and a pipeline, the page's own world holds no cdp-skill name, no
// symbol, no leftover channel, and addEventListener, onclick and the
// built-ins the action watch wraps while a click settles are native again;
// the engine still did its work (a role-less card with a listener got a
// ref that clicked it once, the click's timer ran, the field holds the
// text, the function's element came back with its ref).
func TestEngineLeavesNothingInThePageWorld(t *testing.T) {
	p := loadHTML(t, pageWorldPage)
	ctx := testCtx(t)
	check := func(after string) pageWorldState {
		t.Helper()
		st := readPageWorld(t, p)
		if len(st.Names) > 0 || st.Symbols > 0 || len(st.Natives) > 0 {
			t.Errorf("after %s the page's world shows names %v, %d symbols, non-native %v", after, st.Names, st.Symbols, st.Natives)
		}
		return st
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("a snapshot")
	card := refOf(t, s.YAML, "Open card")
	click(t, p, Target{Ref: card}, ClickOptions{})
	click(t, p, Target{Ref: refOf(t, s.YAML, `button "Go"`)}, ClickOptions{})
	check("two clicks")
	fill(t, p, Target{Label: "Name"}, "Ann", FillOptions{Clear: true})
	check("a fill")
	raw, err := p.Scripts().Run(ctx, `(card) => ({text: card.textContent, el: card})`, FunctionOptions{Refs: []string{card}})
	if err != nil || !strings.Contains(string(raw), `"text":"Open card"`) || !strings.Contains(string(raw), `"ref":"`+card+`"`) {
		t.Fatalf("pageFunction with refs: %s %v", raw, err)
	}
	check("a pageFunction")
	res, err := p.Scripts().Poll(ctx, `() => document.getElementById('card')`, 10*time.Millisecond)
	if err != nil || !res.Resolved || !strings.Contains(string(res.Value), `"ref":"`+card+`"`) {
		t.Fatalf("poll: %+v %v", res, err)
	}
	check("a poll")
	pr, err := p.Scripts().Pipeline(ctx, []PipelineOp{{"find": "#name", "fill": "Bea"}, {"return": "document.getElementById('name').value"}}, 0)
	if err != nil || !pr.Completed || len(pr.Results) != 2 || !strings.Contains(string(pr.Results[1]), `"value":"Bea"`) {
		t.Fatalf("pipeline: %+v %v", pr, err)
	}
	st := check("a pipeline")
	if st.Hits != 1 || st.Out != "went" || st.Name != "Bea" {
		t.Errorf("the page's own state: %+v (want one card click, the Go timer run, the name filled by the pipeline)", st)
	}
}

// TestPageCannotForgeARefPlaceholder: a page function's own value that
// holds the key the serializer once used for an element's ref
// ("__cdpSkillRef") stays the page's data: it becomes no ref.
func TestPageCannotForgeARefPlaceholder(t *testing.T) {
	p := loadHTML(t, pageWorldPage)
	ctx := testCtx(t)
	if _, err := p.Snapshot(ctx, SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, err := p.Scripts().Run(ctx, `() => ({a: 1, __cdpSkillRef: 0, el: document.getElementById('go')})`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(raw), `"ref"`) != 1 || !strings.Contains(string(raw), `"__cdpSkillRef":0`) {
		t.Fatalf("value %s: want the page's key kept and one ref (the button's)", raw)
	}
}

// wrappedNatives are the built-ins the action watch wraps, as the page's
// world names them.
var wrappedNatives = map[string]string{
	"setTimeout":                     "window.setTimeout",
	"clearTimeout":                   "window.clearTimeout",
	"fetch":                          "window.fetch",
	"requestAnimationFrame":          "window.requestAnimationFrame",
	"cancelAnimationFrame":           "window.cancelAnimationFrame",
	"postMessage":                    "window.postMessage",
	"send":                           "XMLHttpRequest.prototype.send",
	"MessagePort.postMessage":        "MessagePort.prototype.postMessage",
	"submit":                         "HTMLFormElement.prototype.submit",
	"json":                           "Response.prototype.json",
	"text":                           "Response.prototype.text",
	"arrayBuffer":                    "Response.prototype.arrayBuffer",
	"HTMLFormElement.requestSubmit?": "HTMLFormElement.prototype.requestSubmit",
}

// nonNativeWrapped lists, in the page's world, the wrapped built-ins that
// are not the browser's own: their source (read with the toString of a
// fresh about:blank frame, which nothing patched) is not "[native code]",
// their name is not the built-in's, or they have a prototype (a native
// function of these kinds has none; every JavaScript function does).
func nonNativeWrapped(t *testing.T, p *Page) []string {
	t.Helper()
	var exprs []string
	for name, expr := range wrappedNatives {
		exprs = append(exprs, fmt.Sprintf("[%q, %s]", name, expr))
	}
	sort.Strings(exprs)
	raw, err := p.Eval(testCtx(t), `(() => {
		const f = document.createElement('iframe');
		document.documentElement.appendChild(f);
		const toStr = f.contentWindow.Function.prototype.toString;
		f.remove();
		return [`+strings.Join(exprs, ", ")+`].filter(([name, fn]) => {
			const key = name.replace(/\?$/, '').split('.').pop();
			return typeof fn !== 'function' || !toStr.call(fn).includes('[native code]') ||
				fn.name !== key || Object.prototype.hasOwnProperty.call(fn, 'prototype');
		}).map(([name]) => name);
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	if err := json.Unmarshal(raw, &bad); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return bad
}

// startUpWatchPage does start-up work the start-up watch waits for (a
// short timer its load handler sets, a fetch), keeps no reference to the
// built-ins unless ?saved, and has a button whose click sets a short
// timer (the click's watch waits for it) through window.setTimeout and,
// when the page saved one, through its saved setTimeout too.
const startUpWatchPage = `<!doctype html><title>Start</title>
<script>
window.saved = location.search === '?saved' ? { setTimeout: window.setTimeout, fetch: window.fetch } : null;
window.ticks = 0;
addEventListener('load', () => {
  setTimeout(() => { document.getElementById('boot').textContent = 'booted'; }, 30);
  fetch(location.href).catch(() => {});
});
</script>
<p id="boot"></p><p id="out"></p><p id="saved"></p>
<button id="go" onclick="window.ticks++; setTimeout(() => { document.getElementById('out').textContent = 'went ' + window.ticks; }, 30);
  if (window.saved) (0, window.saved.setTimeout)(() => { document.getElementById('saved').textContent = 'saved ran'; }, 0);">Go</button>`

// TestStartUpWatchPutsTheNativesBack (issue 31, item 12): after a goto
// whose start-up the watch settled, every built-in the watch wrapped is
// the browser's own again on window and on the prototypes, read the way
// a fingerprinting script reads it (Function.prototype.toString.call,
// name, prototype); a click after it still waits for the timer its
// handler set, and leaves the natives too. A page that kept references at
// start-up still has working functions in them (they pass through), while
// the window's own are native.
func TestStartUpWatchPutsTheNativesBack(t *testing.T) {
	base := servePages(t, map[string]string{"start.html": startUpWatchPage})
	for _, query := range []string{"", "?saved"} {
		t.Run("page"+query, func(t *testing.T) {
			p := openTestTab(t)
			ctx := testCtx(t)
			if _, err := p.Navigate(ctx, base+"start.html"+query, WaitLoad); err != nil {
				t.Fatal(err)
			}
			if got := evalString(t, p, `document.getElementById('boot').textContent`); got != "booted" {
				t.Fatalf("start-up timer not waited for: boot = %q", got)
			}
			if bad := nonNativeWrapped(t, p); len(bad) > 0 {
				t.Errorf("after the goto's start-up settled, not native: %v", bad)
			}
			click(t, p, Target{Selector: "#go"}, ClickOptions{})
			if got := evalString(t, p, `document.getElementById('out').textContent`); got != "went 1" {
				t.Errorf("the click's timer: out = %q, want \"went 1\" (the click ran once and its settle waited)", got)
			}
			if bad := nonNativeWrapped(t, p); len(bad) > 0 {
				t.Errorf("after a click, not native: %v", bad)
			}
			if query == "" {
				return
			}
			// The saved references pass through to the natives.
			if _, err := p.Eval(ctx, `new Promise((res) => (0, window.saved.setTimeout)(res, 0)).then(() => (0, window.saved.fetch)(location.href)).then((r) => r.text())`); err != nil {
				t.Errorf("the page's saved setTimeout and fetch: %v", err)
			}
			// Set during the click before the click's 30 ms timer, with no
			// delay: it ran before the one the click's settle waited for.
			if got := evalString(t, p, `document.getElementById('saved').textContent`); got != "saved ran" {
				t.Errorf("the timer set through the saved setTimeout during the click: saved = %q", got)
			}
		})
	}
}

// evalString evaluates expr in the page and returns its string value.
func evalString(t *testing.T, p *Page, expr string) string {
	t.Helper()
	raw, err := p.Eval(testCtx(t), expr)
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %s: %v", expr, raw, err)
	}
	return s
}
