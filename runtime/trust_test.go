package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func openTrust(t *testing.T) string {
	t.Helper()
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`trust.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	return out.Tab
}

func pageJSON(t *testing.T, tab, expr string) string {
	t.Helper()
	out := runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[{"pageFunction":"`+expr+`"}]}`)
	mustOK(t, out)
	return jsonString(out.Steps[0].Output)
}

// The read-only getters and the selector wait see open shadow roots, as
// the actions do: one lookup everywhere.
func TestGettersAndWaitSeeShadowRoots(t *testing.T) {
	tab := openTrust(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"wait":"#late"}, {"wait":{"text":"In stock"}}]}`)
	mustOK(t, out)
	src := `result = {"exists": exists("#price"), "count": count(".item"), "text": text("#price"), "late": text("#late")}`
	rec := runRecipe(t, Program{Source: []byte(src), Tab: tab})
	mustOK(t, rec)
	if got := jsonString(rec.Result); got != `{"exists":true,"count":2,"text":"€ 12","late":"In stock"}` {
		t.Fatalf("getters: %s", got)
	}
}

func TestAmbiguousTextAnswersCandidatesAndRefWorks(t *testing.T) {
	tab := openTrust(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Delete"}}]}`)
	if out.OK() || out.Steps[0].ErrorType != "AmbiguousTargetError" {
		t.Fatalf("want AmbiguousTargetError: %s", out.JSON())
	}
	var ctx struct{ Candidates []map[string]any }
	json.Unmarshal([]byte(jsonString(out.Steps[0].Context)), &ctx)
	cands := ctx.Candidates
	if len(cands) != 2 {
		t.Fatalf("candidates in the answer: %s", out.JSON())
	}
	if got := pageJSON(t, tab, "() => [hits.del1, hits.del2]"); got != "[0,0]" {
		t.Fatalf("an ambiguous click acted: %s", got)
	}
	// The answer's nextActions are the candidates as ready steps: the
	// agent runs the first one as it is.
	if len(out.NextActions) != 2 || jsonString(out.NextActions[0].Step) != `{"click":"`+cands[0]["ref"].(string)+`"}` {
		t.Fatalf("nextActions: %s", jsonString(out.NextActions))
	}
	mustOK(t, runJSON(t, `{"tab":"`+tab+`","steps":[`+jsonString(out.NextActions[0].Step)+`]}`))
	if got := pageJSON(t, tab, "() => [hits.del1, hits.del2]"); got != "[1,0]" {
		t.Fatalf("after the ref click: %s", got)
	}
}

func TestBlockingModalAnswersInterceptedWithItsButtons(t *testing.T) {
	tab := openTrust(t)
	pageJSON(t, tab, "() => { document.getElementById('consent').style.display = 'block'; return true; }")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"#pay"}]}`)
	if out.OK() || out.Steps[0].ErrorType != "ElementInterceptedError" {
		t.Fatalf("want ElementInterceptedError: %s", out.JSON())
	}
	mustContain(t, string(out.JSON()), `"Accept all"`, `"ref":"s`)
	if got := pageJSON(t, tab, "() => hits.pay"); got != "0" {
		t.Fatalf("the click went through the modal: %s", got)
	}
	// nextActions dismisses it in one step; then the click lands.
	if len(out.NextActions) == 0 || !strings.Contains(out.NextActions[0].Why, "Accept all") {
		t.Fatalf("nextActions: %s", jsonString(out.NextActions))
	}
	mustOK(t, runJSON(t, `{"tab":"`+tab+`","steps":[`+jsonString(out.NextActions[0].Step)+`, {"click":"#pay"}]}`))
	if got := pageJSON(t, tab, "() => hits.pay"); got != "1" {
		t.Fatalf("after dismissing: pay clicked %s times", got)
	}
}

func TestNextActionsRetargetAFillAndPageAnExtract(t *testing.T) {
	tab := openTrust(t)
	pageJSON(t, tab, "() => { document.body.insertAdjacentHTML('beforeend', '<label>Note <input id=n1></label><label>Note <input id=n2></label><ul id=many>' + Array.from({length: 12}, (_, i) => '<li>item ' + i + '</li>').join('') + '</ul>'); return true; }")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"fill":{"label":"Note","value":"hello"}}]}`)
	if out.OK() || len(out.NextActions) != 2 {
		t.Fatalf("ambiguous fill: %s", out.JSON())
	}
	step := out.NextActions[1].Step["fill"].(map[string]any)
	if step["value"] != "hello" || !strings.HasPrefix(step["ref"].(string), "s") || step["label"] != nil {
		t.Fatalf("retargeted fill: %s", jsonString(out.NextActions[1]))
	}
	mustOK(t, runJSON(t, `{"tab":"`+tab+`","steps":[`+jsonString(out.NextActions[1].Step)+`]}`))
	if got := pageJSON(t, tab, "() => [n1.value, n2.value]"); got != `["","hello"]` {
		t.Fatalf("values after the suggested fill: %s", got)
	}
	ex := runJSON(t, `{"tab":"`+tab+`","steps":[{"extract":{"selector":"#many","limit":5}}]}`)
	mustOK(t, ex)
	if len(ex.NextActions) != 1 || jsonString(ex.NextActions[0].Step) != `{"extract":{"limit":5,"offset":5,"selector":"#many"}}` {
		t.Fatalf("paging suggestion: %s", jsonString(ex.NextActions))
	}
	page2 := runJSON(t, `{"tab":"`+tab+`","steps":[`+jsonString(ex.NextActions[0].Step)+`]}`)
	if got := jsonString(stepOutput(t, page2, 0)["items"]); got != `["item 5","item 6","item 7","item 8","item 9"]` {
		t.Fatalf("second page: %s", got)
	}
}

func TestStrictCommandOption(t *testing.T) {
	if src := compileForTest(t, `{"strict":true,"steps":[{"click":"#a"}]}`); !strings.Contains(src, "configure(strict = True)") {
		t.Fatalf("lowering: %s", src)
	}
	out := runJSON(t, `{"strict":"yes","steps":[{"click":"#a"}]}`)
	if out.OK() || !strings.Contains(string(out.JSON()), `\"strict\" must be true or false`) {
		t.Fatalf("bad strict value: %s", out.JSON())
	}
	tab := openTrust(t)
	// Covered by a toast-like decoration at every position: strict fails
	// instead of clicking it with JavaScript.
	pageJSON(t, tab, "() => { const s = document.createElement('span'); const r = pay.getBoundingClientRect(); Object.assign(s.style, {position: 'absolute', left: r.left + 'px', top: (r.top + scrollY) + 'px', width: r.width + 'px', height: r.height + 'px'}); document.body.appendChild(s); return true; }")
	out = runJSON(t, `{"tab":"`+tab+`","strict":true,"timeout":2500,"steps":[{"click":"#pay"}]}`)
	if out.OK() {
		t.Fatalf("strict click under a cover succeeded: %s", out.JSON())
	}
	if got := pageJSON(t, tab, "() => hits.pay"); got != "0" {
		t.Fatalf("strict click ran the handler: %s", got)
	}
}

// A command attached to a tab that connects to that same tab keeps it; it
// used to wait on its own lock for 30 s and fail as "busy".
func TestConnectTabToTheCurrentTab(t *testing.T) {
	tab := openTrust(t)
	out := runJSON(t, `{"tab":"`+tab+`","timeout":5000,"steps":[{"connectTab":"`+tab+`"},{"pageFunction":"() => document.title"}]}`)
	mustOK(t, out)
	if got := jsonString(out.Steps[1].Output); got != `"Trust"` {
		t.Fatalf("after connectTab: %s", got)
	}
}

// TestEveryCommandStartsInTheTopDocument: a frame step scopes the rest of
// its command only (spec §19.12): the next command, JSON or recipe, run
// directly or as the resident process and the MCP server run it (a kept
// page), starts in the top document, so an agent that begins each command
// with {"frame": …} finds the iframe from the top every time, and the
// frame's button is clicked exactly once per command.
func TestEveryCommandStartsInTheTopDocument(t *testing.T) {
	url := pagesURL(t) + "framed.html"
	for _, pooled := range []bool{false, true} {
		o := testOptions(t)
		if pooled {
			o.Pool = NewPool()
			t.Cleanup(o.Pool.Close)
		}
		run := func(prog Program) *Output {
			t.Helper()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if prog.Name == "" {
				_, out := RunJSON(ctx, prog.Source, o)
				out.Finish()
				return out
			}
			out := Run(ctx, prog, o)
			out.Finish()
			return out
		}
		open := run(Program{Source: []byte(`{"steps":[{"openTab":"` + url + `"},{"wait":"iframe#checkout"}]}`)})
		mustOK(t, open)
		closeTabAfter(t, open)
		tab := open.Tab
		pay := `{"tab":"` + tab + `","steps":[{"frame":"#checkout"},{"click":"#pay"},{"pageFunction":"() => window.paid"}]}`
		for i := 1; i <= 2; i++ {
			out := run(Program{Source: []byte(pay)})
			if !out.OK() || jsonString(out.Steps[2].Output) != fmt.Sprint(i) {
				t.Fatalf("pooled %t: command %d that starts with frame: %s", pooled, i, out.JSON())
			}
		}
		top := run(Program{Source: []byte(`{"tab":"` + tab + `","steps":[{"pageFunction":"() => document.title"}]}`)})
		if !top.OK() || jsonString(top.Steps[0].Output) != `"Framed"` {
			t.Fatalf("pooled %t: the command after a frame step: %s", pooled, top.JSON())
		}
		// Recipes too: each starts in the top document.
		recipe := "frame(\"#checkout\")\nclick(\"#pay\")\npage_function(\"() => window.paid\")\n"
		for i := 3; i <= 4; i++ {
			out := run(Program{Name: "pay.star", Tab: tab, Source: []byte(recipe)})
			if !out.OK() || jsonString(out.Steps[2].Output) != fmt.Sprint(i) {
				t.Fatalf("pooled %t: recipe %d that starts with frame: %s", pooled, i, out.JSON())
			}
		}
		top = run(Program{Name: "title.star", Tab: tab, Source: []byte("page_function(\"() => document.title\")\n")})
		if !top.OK() || jsonString(top.Steps[0].Output) != `"Framed"` {
			t.Fatalf("pooled %t: the recipe after a frame step: %s", pooled, top.JSON())
		}
		// Within a command, a frame step scopes the steps after it; "top"
		// returns.
		in := run(Program{Source: []byte(`{"tab":"` + tab + `","steps":[{"frame":"#checkout"},{"pageFunction":"() => document.title"},{"frame":"top"},{"pageFunction":"() => document.title"}]}`)})
		if !in.OK() || jsonString(in.Steps[1].Output) != `"Checkout"` || jsonString(in.Steps[3].Output) != `"Framed"` {
			t.Fatalf("pooled %t: frame steps within a command: %s", pooled, in.JSON())
		}
	}
}
