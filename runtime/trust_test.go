package runtime

import (
	"encoding/json"
	"strings"
	"testing"
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
	ref, _ := cands[0]["ref"].(string)
	mustOK(t, runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"`+ref+`"}]}`))
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
