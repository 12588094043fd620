package runtime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// readRefsFile reads a snapshot's refs map file.
func readRefsFile(t *testing.T, path string) map[string]struct{ Role, Name string } {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("refs map %q: %v", path, err)
	}
	var refs map[string]struct{ Role, Name string }
	if err := json.Unmarshal(data, &refs); err != nil {
		t.Fatalf("refs map %s: %v", path, err)
	}
	return refs
}

// TestSpecRefsFileHoldsFoldedElements: §7.6/§11.1 — the refs file of a
// snapshot above 1000 refs holds every ref the snapshot counts, those of
// elements folded onto their list item's line and those inside an iframe
// included; a ref taken from it acts on its element once.
func TestSpecRefsFileHoldsFoldedElements(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`spec-folded.html"},{"snapshot":true}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	snap := stepOutput(t, out, 1)
	if y, _ := snap["yaml"].(string); !strings.Contains(y, `- listitem: link "Item 0"`) {
		t.Fatalf("the items are not folded onto their lines: %.300s", y)
	}
	arts, _ := snap["artifacts"].(map[string]any)
	path, _ := arts["refs"].(string)
	refs := readRefsFile(t, path)
	n, _ := snap["refs"].(float64)
	if n < 1400 || float64(len(refs)) != n {
		t.Fatalf("the refs file has %d refs, the snapshot counts %v", len(refs), snap["refs"])
	}
	buy, item, pay := "", "", ""
	for r, e := range refs {
		switch {
		case e.Role == "button" && e.Name == "Buy 500":
			buy = r
		case e.Role == "link" && e.Name == "Item 699":
			item = r
		case e.Role == "button" && e.Name == "Pay now":
			pay = r
		}
	}
	if buy == "" || item == "" || pay == "" {
		t.Fatalf("refs file misses Buy 500 (%q), Item 699 (%q) or the frame's Pay now (%q)", buy, item, pay)
	}
	click := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+buy+`"},{"pageFunction":"JSON.stringify(bought)"}]}`)
	mustOK(t, click)
	if got := jsonString(click.Steps[1].Output); got != `"{\"500\":1}"` {
		t.Errorf("clicking %s from the refs file: bought %s", buy, got)
	}

	// The same from a recipe.
	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`s = snapshot()
result = [s.refs, s.artifacts["refs"]]`)})
	mustOK(t, rec)
	var got []any
	if err := json.Unmarshal([]byte(jsonString(rec.Result)), &got); err != nil || len(got) != 2 {
		t.Fatalf("recipe result %s", rec.JSON())
	}
	p, _ := got[1].(string)
	if refs := readRefsFile(t, p); float64(len(refs)) != got[0] {
		t.Errorf("recipe: the refs file has %d refs, the snapshot counts %v", len(refs), got[0])
	}
}

// TestSpecQueryUnknownRole: §6.5 — a role the engine does not know falls
// back to [role="…"]: query finds the elements (shadow DOM included) by
// it, alone or with a known role, with name filters; its refs act on the
// element; a known role keeps ARIA's meaning (an unnamed region is no
// region); snapshot's root "role=…" takes it too.
func TestSpecQueryUnknownRole(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`spec-names.html"},
		{"query":{"role":"foo-widget"}},
		{"query":{"role":"foo-widget","name":"Second"}},
		{"query":{"role":["button","foo-widget"],"countOnly":true}},
		{"query":{"role":"region","countOnly":true}},
		{"snapshot":{"root":"role=foo-widget"}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	all := stepOutput(t, out, 1)
	res, _ := all["results"].([]any)
	if all["total"] != float64(3) || len(res) != 3 {
		t.Fatalf("query role foo-widget: %s", jsonString(all))
	}
	first, _ := res[0].(map[string]any)
	if first["role"] != "foo-widget" || first["name"] != "Widget one" {
		t.Errorf("first foo-widget: %v", first)
	}
	if got := stepOutput(t, out, 2); got["total"] != float64(1) {
		t.Errorf("query foo-widget named Second: %s", jsonString(got))
	}
	if got := stepOutput(t, out, 3); got["total"] != float64(7) {
		t.Errorf("buttons and foo-widgets: %s, want 7", jsonString(got))
	}
	if got := stepOutput(t, out, 4); got["total"] != float64(0) {
		t.Errorf("an unnamed region counted as a region: %s", jsonString(got))
	}
	if y, _ := stepOutput(t, out, 5)["yaml"].(string); !strings.Contains(y, "Widget one") || strings.Contains(y, "Roles and names") {
		t.Errorf("snapshot rooted at role=foo-widget: %s", y)
	}
	ref, _ := first["ref"].(string)
	click := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+ref+`"},{"pageFunction":"window.widgetClicks"}]}`)
	mustOK(t, click)
	if got := jsonString(click.Steps[1].Output); got != "1" {
		t.Errorf("clicking the foo-widget's ref %s: widget %s", ref, got)
	}

	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`q = query(role = "foo-widget", name_exact = True, name = "Shadow widget")
result = [q.total, q.results[0].role]`)})
	mustOK(t, rec)
	if got := jsonString(rec.Result); got != `[1,"foo-widget"]` {
		t.Errorf("recipe query of the shadow foo-widget: %s", rec.JSON())
	}
}

// TestSpecTextTargetsMatchVisibleText: §6.4 — a text target matches an
// element's visible text as well as its accessible name: a button named
// "Submit" that shows "Click here" is clicked by either (exact too), as
// are a link and a button in shadow DOM; two buttons showing the same
// words stay ambiguous and neither is clicked.
func TestSpecTextTargetsMatchVisibleText(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`spec-names.html"},
		{"click":{"text":"Click here"}},
		{"click":{"text":"Click here","exact":true}},
		{"click":{"text":"Submit"}},
		{"click":{"text":"Read on"}},
		{"click":{"text":"press inside"}},
		{"pageFunction":"JSON.stringify([window.submits, window.more, window.shadowPress])"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Steps[6].Output); got != `"[3,1,1]"` {
		t.Errorf("submits, more, shadow presses = %s, want [3,1,1]: %s", got, out.JSON())
	}
	amb := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":{"text":"Remove"}}]}`)
	if amb.OK() || len(amb.Errors) == 0 || amb.Errors[0].ErrorType != "AmbiguousTargetError" {
		t.Errorf("text Remove, shown by two buttons: %s", amb.JSON())
	}
	left := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"JSON.stringify(window.removed || [])"}]}`)
	if got := jsonString(left.Steps[0].Output); got != `"[]"` {
		t.Errorf("an ambiguous text clicked %s", got)
	}

	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`click(text = "Click here")
result = page_function("window.submits")`)})
	mustOK(t, rec)
	if got := jsonString(rec.Result); got != "4" {
		t.Errorf("recipe click(text = \"Click here\"): submits %s: %s", got, rec.JSON())
	}
}

// TestSpecActiveElementAfterVisualCommands: §14.4 — after a visual
// command context.activeElement has the spec's fields (tag, selector,
// box, editable, and for a field its type, value and placeholder) even
// though the viewport snapshot shows its line; a password's value is
// masked and never in the answer.
func TestSpecActiveElementAfterVisualCommands(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`spec-names.html"},{"fill":{"selector":"#email","value":"ann@example.com"}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	a := activeOf(t, out)
	if a["tag"] != "input" || a["selector"] == nil || a["box"] == nil || a["type"] != "email" ||
		a["value"] != "ann@example.com" || a["placeholder"] != "you@example.com" || a["editable"] != true || a["ref"] == nil {
		t.Errorf("after fill, activeElement = %v", a)
	}
	if out.ViewportSnap == "" || !strings.Contains(out.ViewportSnap, "[focused]") {
		t.Errorf("the viewport snapshot does not show the focused field: %q", out.ViewportSnap)
	}
	const secret = "hunter2-Secret"
	out = runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"#pw"},{"type":{"selector":"#pw","text":"`+secret+`"}}]}`)
	mustOK(t, out)
	a = activeOf(t, out)
	if a["tag"] != "input" || a["type"] != "password" || a["value"] != "••••••••" || a["placeholder"] != "Your password" || a["box"] == nil {
		t.Errorf("after typing a password, activeElement = %v", a)
	}
	if strings.Contains(string(out.JSON()), secret) {
		t.Errorf("the password is in the answer: %s", out.JSON())
	}
	check := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"document.getElementById('pw').value === '`+secret+`'"}]}`)
	if got := jsonString(check.Steps[0].Output); got != "true" {
		t.Errorf("the password field holds the wrong value: %s", got)
	}

	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`click("#email")`)})
	mustOK(t, rec)
	a = activeOf(t, rec)
	if a["tag"] != "input" || a["type"] != "email" || a["value"] != "ann@example.com" || a["selector"] == nil {
		t.Errorf("after a recipe's click, activeElement = %v", a)
	}
}

// activeOf is an answer's context.activeElement.
func activeOf(t *testing.T, out *Output) map[string]any {
	t.Helper()
	var o struct {
		Context struct {
			ActiveElement map[string]any `json:"activeElement"`
		} `json:"context"`
	}
	if err := json.Unmarshal(out.JSON(), &o); err != nil || o.Context.ActiveElement == nil {
		t.Fatalf("no context.activeElement (%v): %s", err, out.JSON())
	}
	return o.Context.ActiveElement
}

// TestSpecSnapshotShowsFieldNamesAndShownText: §7.1/§7.2 — a snapshot
// shows a form field's name attribute, and inlines the text of a control
// named otherwise (button "Submit": Click here).
func TestSpecSnapshotShowsFieldNamesAndShownText(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`spec-names.html"},{"snapshot":true}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	y, _ := stepOutput(t, out, 1)["yaml"].(string)
	mustContain(t, y, `button "Submit" [ref=`, `]: Click here`, `link "More about us" [ref=`, `[url=#more]: Read on`,
		`textbox "Email" [name=login_email] [ref=`, `button "Remove item 1" [ref=`, `]: Remove`)
	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`result = snapshot().yaml`)})
	mustOK(t, rec)
	var ry string
	json.Unmarshal([]byte(jsonString(rec.Result)), &ry)
	mustContain(t, ry, `]: Click here`, `[name=login_email]`)
}

// TestSpecQueryCleanFalseKeepsWhitespace: §11.3 — query's text output is
// the text with its white space normalised, and clean: false keeps it as
// the document has it (textContent).
func TestSpecQueryCleanFalseKeepsWhitespace(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`spec-names.html"},
		{"query":{"selector":"#ws","clean":false}},
		{"query":{"selector":"#ws"}},
		{"pageFunction":"document.getElementById('ws').textContent"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	raw := jsonString(out.Steps[3].Output)
	if got := jsonString(stepOutput(t, out, 1)["results"].([]any)[0].(map[string]any)["value"]); got != raw || !strings.Contains(got, `Two   spaces\n`) {
		t.Errorf("clean: false gives %s, the document has %s", got, raw)
	}
	if got := stepOutput(t, out, 2)["results"].([]any)[0].(map[string]any)["value"]; got != "Two spaces and a new line" {
		t.Errorf("the default gives %q", got)
	}
	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`result = query("#ws", clean = False).results[0].value`)})
	mustOK(t, rec)
	if got := jsonString(rec.Result); got != raw {
		t.Errorf("recipe clean = False gives %s, want %s", got, raw)
	}
}

// TestSpecWriteSiteProfileSanitisesDomain: §15.2 — writeSiteProfile names
// the profile by the domain with every character but letters, digits, "."
// and "-" made "_": my_site!.com is my_site_.com, localhost:8080 is
// localhost_8080; readSiteProfile finds it by the same spelling; a domain
// that would leave the sites directory is still refused.
func TestSpecWriteSiteProfileSanitisesDomain(t *testing.T) {
	sites := t.TempDir()
	prev := state.SetSitesDir(sites)
	t.Cleanup(func() { state.SetSitesDir(prev) })
	out := runJSON(t, `{"steps":[
		{"writeSiteProfile":{"domain":"my_site!.com","content":"# mine"}},
		{"writeSiteProfile":{"domain":"localhost:8080","content":"# dev server"}},
		{"readSiteProfile":"MY_SITE!.com"}]}`)
	mustOK(t, out)
	for i, want := range []string{"my_site_.com", "localhost_8080"} {
		o := stepOutput(t, out, i)
		if o["domain"] != want || o["path"] != filepath.Join(sites, want+".md") {
			t.Errorf("step %d wrote %v, want domain %s", i, o, want)
		}
		if _, err := os.Stat(filepath.Join(sites, want+".md")); err != nil {
			t.Errorf("no profile file %s: %v", want, err)
		}
	}
	if o := stepOutput(t, out, 2); o["found"] != true || o["content"] != "# mine" {
		t.Errorf("readSiteProfile MY_SITE!.com: %v", o)
	}
	bad := runJSON(t, `{"steps":[{"writeSiteProfile":{"domain":"../../etc","content":"x"}}]}`)
	if bad.OK() || len(bad.Errors) == 0 || !strings.Contains(bad.Errors[0].Error, "give the host name alone") {
		t.Errorf("../../etc: %s", bad.JSON())
	}
	if md, _ := filepath.Glob(filepath.Join(sites, "*.md")); len(md) != 2 {
		t.Errorf("sites dir holds profiles %s, want the two", md)
	}
	rec := runRecipe(t, Program{Source: []byte(`w = write_site_profile(domain = "shop name.example", content = "# shop")
result = [w["domain"], read_site_profile("shop name.example")["found"]]`)})
	mustOK(t, rec)
	if got := jsonString(rec.Result); got != `["shop_name.example",true]` {
		t.Errorf("recipe: %s", rec.JSON())
	}
}

// TestSpecSelectorOnlyInFrameNamesTheFrame: §13.3 — a CSS selector that
// matches nothing in the document but matches inside an iframe fails with
// a hint naming the frame, and following it works.
func TestSpecSelectorOnlyInFrameNamesTheFrame(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`spec-frame.html"},{"wait":{"selector":"iframe#pay"}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	miss := runJSON(t, `{"tab":"`+out.Tab+`","timeout":1500,"steps":[{"click":"#pay-now"}]}`)
	if miss.OK() || len(miss.Errors) == 0 {
		t.Fatalf("#pay-now outside its frame: %s", miss.JSON())
	}
	if e := miss.Errors[0].Error; !strings.Contains(e, "It matches inside frame #pay") || !strings.Contains(e, `{"frame": "#pay"}`) {
		t.Errorf("no hint naming the frame: %s", e)
	}
	if !strings.Contains(jsonString(miss.Steps[0].Context), `"inFrames":[{"frame":"#pay"`) {
		t.Errorf("no inFrames in the failure context: %s", jsonString(miss.Steps[0].Context))
	}
	ok := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"frame":"#pay"},{"click":"#pay-now"},{"pageFunction":"window.paid"}]}`)
	mustOK(t, ok)
	if got := jsonString(ok.Steps[2].Output); got != "1" {
		t.Errorf("after following the hint, paid = %s", got)
	}
	// A selector that matches nowhere gets no such hint.
	none := runJSON(t, `{"tab":"`+out.Tab+`","timeout":1000,"steps":[{"click":"#nowhere"}]}`)
	if none.OK() || strings.Contains(none.Errors[0].Error, "inside frame") {
		t.Errorf("#nowhere: %s", none.JSON())
	}

	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`configure(timeout = 1500)
click("#pay-now")`)})
	if rec.OK() || len(rec.Errors) == 0 || !strings.Contains(rec.Errors[0].Error, "It matches inside frame #pay") {
		t.Errorf("recipe: %s", rec.JSON())
	}
}
