package browser

import (
	"encoding/json"
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
			// The start-up watch's gates stay for the references the
			// page's scripts kept (watch.js gateAll): pass-throughs that
			// read as the natives.
			...Object.entries({
				setTimeout: window.setTimeout, fetch: window.fetch, requestAnimationFrame: window.requestAnimationFrame,
				send: XMLHttpRequest.prototype.send, postMessage: window.postMessage,
			}).filter(([k, f]) => !String(f).includes('[native code]')).map(([k]) => k),
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
