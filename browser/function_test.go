package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestSerializerTypes(t *testing.T) {
	p := loadHTML(t, `<main><p id="x" class="c" data-k="v">Hello <b>there</b></p><p>Two</p></main>`)
	ctx := testCtx(t)
	cases := map[string]string{
		`() => ({n: 1, s: "a", b: true, z: null, arr: [1, [2]]})`: `{"n":1,"s":"a","b":true,"z":null,"arr":[1,[2]]}`,
		`() => undefined`:                                     `{"type":"undefined"}`,
		`() => NaN`:                                           `{"type":"number","value":"NaN"}`,
		`() => -Infinity`:                                     `{"type":"number","value":"-Infinity"}`,
		`() => 12345678901234567890n`:                         `{"type":"bigint","value":"12345678901234567890"}`,
		`() => Symbol("s")`:                                   `{"type":"symbol","value":"Symbol(s)"}`,
		`() => new Date(0)`:                                   `{"type":"Date","value":"1970-01-01T00:00:00.000Z","timestamp":0}`,
		`() => /a+b/gi`:                                       `{"type":"RegExp","value":"/a+b/gi"}`,
		`() => new Map([["k", 1]])`:                           `{"type":"Map","size":1,"entries":[["k",1]]}`,
		`() => new Set([1, 2])`:                               `{"type":"Set","size":2,"values":[1,2]}`,
		`() => new Uint8Array([1, 2])`:                        `[1,2]`,
		`() => new DataView(new ArrayBuffer(4))`:              `{"type":"DataView","byteLength":4}`,
		`() => { const o = {}; o.self = o; return o }`:        `{"self":{"type":"circular"}}`,
		`() => Array.from({length: 150}, (_, i) => i).length`: `150`,
	}
	for src, want := range cases {
		raw, err := p.Scripts().Run(ctx, src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if string(raw) != want {
			t.Errorf("%s = %s, want %s", src, raw, want)
		}
	}
	check := func(src string, parts ...string) {
		t.Helper()
		raw, err := p.Scripts().Run(ctx, src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for _, part := range parts {
			if !strings.Contains(string(raw), part) {
				t.Errorf("%s = %s: no %s", src, raw, part)
			}
		}
	}
	check(`() => new TypeError("bad")`, `"type":"Error"`, `"name":"TypeError"`, `"message":"bad"`)
	check(`() => document.getElementById("x")`, `"type":"Element"`, `"tag":"p"`, `"id":"x"`, `"class":"c"`, `"data-k":"v"`, `"text":"Hello there"`, `"isConnected":true`, `"childCount":1`)
	check(`() => document.querySelectorAll("p")`, `"type":"NodeList"`, `"length":2`, `"text":"Two"`)
	check(`() => document`, `"type":"Document"`, `"readyState":"complete"`)
	check(`() => window`, `"type":"Window"`, `"innerWidth"`)
	check(`() => function named(a) { return a }`, `"type":"function"`, `"name":"named"`)
	check(`() => Array.from({length: 150}, (_, i) => i)`, `"type":"array"`, `"length":150`, `"truncated":true`)
	check(`() => Object.fromEntries(Array.from({length: 60}, (_, i) => ["k" + i, i]))`, `"keys":60`, `"truncated":true`)
	// Bare expressions go through the same serializer.
	check(`new Date(86400000)`, `"type":"Date"`, `1970-01-02`)
	check(`document.body`, `"type":"Element"`, `"tag":"body"`)
	if raw, _ := p.Scripts().Run(ctx, `let a = 2; a * 21`); string(raw) != "42" {
		t.Errorf("statements: %s", raw)
	}
	if raw, _ := p.Scripts().Run(ctx, `() => new Date(0)`, FunctionOptions{Plain: true}); string(raw) != `"1970-01-01T00:00:00.000Z"` {
		t.Errorf("plain: %s", raw)
	}
}

// TestPollSerializesValues: poll's values go through the serializer in
// the page's world on a fresh document (nothing else installed it).
func TestPollSerializesValues(t *testing.T) {
	p := loadHTML(t, `<main><h1>Poll</h1><button>Go</button></main>`)
	res, err := p.Scripts().Poll(testCtx(t), `() => document.querySelector('h1')`, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Value), `"type":"Element"`) || !strings.Contains(string(res.Value), `"tag":"h1"`) {
		t.Fatalf("poll value %s, %v", res.Value, err)
	}
	// After a snapshot, elements carry their refs, which live in the
	// engine's world.
	s, _ := p.Snapshot(testCtx(t), SnapshotOptions{})
	ref := refOf(t, s.YAML, `button "Go"`)
	res, err = p.Scripts().Poll(testCtx(t), `() => document.querySelector('button')`, 20*time.Millisecond)
	if err != nil || !strings.Contains(string(res.Value), `"ref":"`+ref+`"`) || strings.Contains(string(res.Value), "__cdpSkill") {
		t.Fatalf("poll value after a snapshot %s, %v (want ref %s)", res.Value, err, ref)
	}
	raw, err := p.Scripts().Run(testCtx(t), `() => [document.querySelector('button'), document.body]`)
	if err != nil || !strings.Contains(string(raw), `"ref":"`+ref+`"`) || strings.Count(string(raw), `"ref"`) != 1 || strings.Contains(string(raw), "__cdpSkill") {
		t.Fatalf("pageFunction value %s, %v (want ref %s on the button only)", raw, err, ref)
	}
}

func TestPageFunctionRefsAndTimeout(t *testing.T) {
	p := loadHTML(t, `<main><button>One</button><button>Two</button><div id="host"></div><x-form></x-form></main>
<script>
document.querySelector('button').pageTag = 'set by the page';
document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<button>Three</button>';
customElements.define('x-form', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'closed'}).innerHTML = '<input aria-label="Full name">'; }
});
// A page that meddles with any event cdp-skill might use to pass elements.
for (const type of ['__cdpSkillHandover', '__cdpSkillClickMark']) window.addEventListener(type, (e) => e.stopImmediatePropagation(), true);
</script>`)
	ctx := testCtx(t)
	s, _ := p.Snapshot(ctx, SnapshotOptions{})
	one, two, three, name := refOf(t, s.YAML, `"One"`), refOf(t, s.YAML, `"Two"`), refOf(t, s.YAML, `"Three"`), refOf(t, s.YAML, `textbox "Full name"`)
	// The refs live in the engine's world; the function gets the page's
	// own elements (what the page set on them is there), in order, shadow
	// DOM included, closed roots too.
	raw, err := p.Scripts().Run(ctx, `(a, b, c, d) => [a.textContent, b.textContent, b.pageTag, c.textContent, c.getRootNode() !== document, d.tagName, d.getAttribute('aria-label')]`, FunctionOptions{Refs: []string{two, one, three, name}})
	if err != nil || string(raw) != `["Two","One","set by the page","Three",true,"INPUT","Full name"]` {
		t.Fatalf("refs list: %s %v", raw, err)
	}
	raw, err = p.Scripts().Run(ctx, `(els) => Object.keys(els).length`, FunctionOptions{Refs: true})
	if err != nil || string(raw) != "4" {
		t.Fatalf("refs map: %s %v", raw, err)
	}
	// Elements a function returns carry their refs, from the engine's world.
	raw, err = p.Scripts().Run(ctx, `(d) => d`, FunctionOptions{Refs: []string{name}})
	if err != nil || !strings.Contains(string(raw), `"ref":"`+name+`"`) {
		t.Fatalf("a returned element in a closed root: %s %v (want ref %s)", raw, err, name)
	}
	js(t, p, `document.querySelectorAll('button')[1].remove()`)
	if _, err := p.Scripts().Run(ctx, `(a) => a.textContent`, FunctionOptions{Refs: []string{two}}); KindOf(err) != KindStaleElement {
		t.Fatalf("a removed ref's element: %v", err)
	}
	_, err = p.Scripts().Run(ctx, `() => { while (true) {} }`, FunctionOptions{Timeout: 300e6})
	if err == nil {
		t.Fatal("busy loop returned")
	}
	// The tab is usable after the busy loop was stopped.
	if raw, err := p.Scripts().Run(ctx, `() => 7`); err != nil || string(raw) != "7" {
		t.Fatalf("after the busy loop: %s %v", raw, err)
	}
}

func TestPipeline(t *testing.T) {
	p := loadHTML(t, `<main><form id="f" onsubmit="event.preventDefault(); window.sent = [this.email.value, this.news.checked, this.plan.value].join('|')">
<input name="email"><input type="checkbox" name="news"><select name="plan"><option>free</option><option>pro</option></select>
<button>Send</button></form></main>`)
	ctx := testCtx(t)
	res, err := p.Scripts().Pipeline(ctx, []PipelineOp{
		{"find": "[name=email]", "fill": "a@b.c"},
		{"find": "[name=news]", "check": true},
		{"find": "[name=plan]", "select": "pro"},
		{"find": "#f button", "click": true},
		{"waitFor": "() => window.sent"},
		{"return": "() => window.sent"},
	}, 0)

	if err != nil || !res.Completed || res.Steps != 6 {
		t.Fatalf("pipeline: %+v %v", res, err)
	}
	var last struct{ Value string }
	json.Unmarshal(res.Results[5], &last)
	if last.Value != "a@b.c|true|pro" || js(t, p, "window.sent") != `"a@b.c|true|pro"` {
		t.Fatalf("form sent %s; results %s", js(t, p, "window.sent"), res.Results)
	}
	res, err = p.Scripts().Pipeline(ctx, []PipelineOp{
		{"find": "[name=email]", "fill": "x@y.z"},
		{"find": "#missing", "click": true},
		{"find": "[name=email]", "fill": "never"},
	}, 0)

	if KindOf(err) != KindExecution || res.FailedAt == nil || *res.FailedAt != 1 || len(res.Results) != 1 || !strings.Contains(res.Error, "#missing") {
		t.Fatalf("failing pipeline: %+v %v", res, err)
	}
	if js(t, p, "document.querySelector('[name=email]').value") != `"x@y.z"` {
		t.Error("the pipeline went on after the failure")
	}
	if _, err := p.Scripts().Pipeline(ctx, []PipelineOp{{"find": "a", "smash": true}}, 0); KindOf(err) != KindStepValidation {
		t.Errorf("bad op: %v", err)
	}
	// A selector where a predicate goes: said so, with the predicate to
	// write; predicates that start like one still run.
	for _, sel := range []string{"#results", ".done", "[data-state=ready]"} {
		_, err := p.Scripts().Pipeline(ctx, []PipelineOp{{"waitFor": sel}}, 0)
		if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "looks like a CSS selector") || !strings.Contains(err.Error(), "document.querySelector('"+sel+"')") {
			t.Errorf("waitFor %q: %v", sel, err)
		}
	}
	if res, err := p.Scripts().Pipeline(ctx, []PipelineOp{{"waitFor": "[1, 2].includes(2)"}}, 0); err != nil || !res.Completed {
		t.Errorf("waitFor an array expression: %+v %v", res, err)
	}
	// Typing fires input per character and one change at its end, as a
	// user's typing does.
	js(t, p, `(() => { const el = document.querySelector('[name=email]'); el.value = ''; window.ev = {input: 0, change: 0}; el.oninput = () => window.ev.input++; el.onchange = () => window.ev.change++; return true; })()`)
	if res, err := p.Scripts().Pipeline(ctx, []PipelineOp{{"find": "[name=email]", "type": "Bob"}}, 0); err != nil || !res.Completed {
		t.Fatalf("pipeline type: %+v %v", res, err)
	}
	if got := js(t, p, "[document.querySelector('[name=email]').value, window.ev.input, window.ev.change]"); got != `["Bob",3,1]` {
		t.Errorf("pipeline type: [value, inputs, changes] = %s", got)
	}
}
