package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

const refsPage = `<!doctype html><title>Refs</title><main>
<div id="app"><button id="save" data-gen="1">Save</button><button>Cancel</button></div>
<ul id="list"><li><button>Delete</button></li><li><button>Delete</button></li></ul>
<my-host></my-host>
</main>
<script>
customElements.define('my-host', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<div><button class="in">Shadow action</button></div>'; }
});
// render replaces the app's nodes the way a virtual-DOM framework does.
function render(label, gen) {
  document.getElementById('app').innerHTML = '<button id="save" data-gen="' + gen + '">' + label + '</button><button>Cancel</button>';
}
</script>`

// refOf returns the ref the snapshot gave to the line containing needle.
func refOf(t *testing.T, yaml, needle string) string {
	t.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		if strings.Contains(line, needle) {
			i := strings.Index(line, "[ref=")
			if i < 0 {
				break
			}
			return line[i+5 : i+5+strings.Index(line[i+5:], "]")]
		}
	}
	t.Fatalf("no ref for %q in:\n%s", needle, yaml)
	return ""
}

// snapNum is the number of a snapshot id (s12 → 12).
func snapNum(t *testing.T, id string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(id, "s%d", &n); err != nil {
		t.Fatalf("snapshot id %q: %v", id, err)
	}
	return n
}

func attr(t *testing.T, p *Page, el *Element, name string) string {
	t.Helper()
	var v string
	if err := el.Call(testCtx(t), &v, `(el, n) => el.getAttribute(n)`, name); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRefsStableAcrossSnapshotsAndInvocations(t *testing.T) {
	p := loadHTML(t, refsPage)
	ctx := testCtx(t)
	s1, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	save := refOf(t, s1.YAML, `button "Save"`)
	// Snapshot numbers come from a counter all tabs share: this tab's
	// first is some k, and its next ones are higher (each new document also
	// takes one, for the refs it hands out before a snapshot).
	var k int
	if _, err := fmt.Sscanf(s1.SnapshotID, "s%d", &k); err != nil || save != s1.SnapshotID+"e1" {
		t.Fatalf("first snapshot %s, save ref %s:\n%s", s1.SnapshotID, save, s1.YAML)
	}
	// A new element appears; old elements keep their refs, the new one gets
	// a ref of the new snapshot.
	p.Eval(ctx, `document.getElementById('app').insertAdjacentHTML('beforeend', '<button>New</button>')`)
	s2, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := refOf(t, s2.YAML, `button "Save"`); got != save {
		t.Errorf("Save changed ref %s → %s", save, got)
	}
	var k2 int
	if _, err := fmt.Sscanf(s2.SnapshotID, "s%d", &k2); err != nil || k2 <= k {
		t.Fatalf("second snapshot %s after s%d", s2.SnapshotID, k)
	}
	if got := refOf(t, s2.YAML, `button "New"`); !strings.HasPrefix(got, s2.SnapshotID+"e") {
		t.Errorf("new element got %s, want an %s ref", got, s2.SnapshotID)
	}

	// A later invocation: a new connection and session on the same tab
	// resolves the ref to the same element and continues the numbering.
	b2, err := Connect(ctx, p.Browser.Endpoint, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	p2, err := b2.Attach(ctx, p.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	el, err := p2.ResolveRef(ctx, save)
	if err != nil {
		t.Fatal(err)
	}
	if el.ReResolved || attr(t, p2, el, "data-gen") != "1" {
		t.Errorf("later invocation resolved %s to another element (reResolved=%v)", save, el.ReResolved)
	}
	s3, err := p2.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var k3 int
	if _, err := fmt.Sscanf(s3.SnapshotID, "s%d", &k3); err != nil || k3 <= k2 {
		t.Errorf("third snapshot id %s, want one after %s", s3.SnapshotID, s2.SnapshotID)
	}
}

func TestStaleRefReResolves(t *testing.T) {
	p := loadHTML(t, refsPage)
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	save := refOf(t, s.YAML, `button "Save"`)
	shadow := refOf(t, s.YAML, `button "Shadow action"`)

	// Same role and name on a new node: re-resolved to the new node.
	p.Eval(ctx, `render('Save', 2)`)
	el, err := p.ResolveRef(ctx, save)
	if err != nil {
		t.Fatal(err)
	}
	if !el.ReResolved || attr(t, p, el, "data-gen") != "2" {
		t.Fatalf("after re-render: reResolved=%v gen=%s", el.ReResolved, attr(t, p, el, "data-gen"))
	}
	// Once adopted, the ref points at the new node directly.
	if el, err = p.ResolveRef(ctx, save); err != nil || el.ReResolved {
		t.Errorf("second resolve: %v reResolved=%v", err, el != nil && el.ReResolved)
	}

	// Shadow content re-rendered inside its host.
	p.Eval(ctx, `document.querySelector('my-host').shadowRoot.innerHTML = '<div><button class="in" data-gen="2">Shadow action</button></div>'`)
	el, err = p.ResolveRef(ctx, shadow)
	if err != nil || !el.ReResolved || attr(t, p, el, "data-gen") != "2" {
		t.Fatalf("shadow re-render: %v", err)
	}

	// A different name: never another element; the ref fails loudly.
	p.Eval(ctx, `render('Delete draft', 3)`)
	_, err = p.ResolveRef(ctx, save)
	if KindOf(err) != KindStaleElement || !strings.Contains(err.Error(), "new snapshot") {
		t.Fatalf("renamed element: err = %v", err)
	}
}

func TestAmbiguousStaleRefFails(t *testing.T) {
	p := loadHTML(t, refsPage)
	ctx := testCtx(t)
	s, _ := p.Snapshot(ctx, SnapshotOptions{})
	del := refOf(t, s.YAML, `button "Delete"`)
	// Both Delete buttons are replaced and moved where the stored selector
	// no longer finds one: two candidates remain, so the ref must fail.
	p.Eval(ctx, `document.getElementById('list').outerHTML = '<div><span><button>Delete</button></span><span><button>Delete</button></span></div>'`)
	_, err := p.ResolveRef(ctx, del)
	if KindOf(err) != KindStaleElement || !strings.Contains(err.Error(), "2 elements") {
		t.Fatalf("err = %v", err)
	}
}

func TestSameNodeRenamedKeepsIdentity(t *testing.T) {
	p := loadHTML(t, refsPage)
	ctx := testCtx(t)
	s, _ := p.Snapshot(ctx, SnapshotOptions{})
	save := refOf(t, s.YAML, `button "Save"`)
	p.Eval(ctx, `document.getElementById('save').textContent = 'Saved'`)
	el, err := p.ResolveRef(ctx, save)
	if err != nil {
		t.Fatal(err)
	}
	if el.ReResolved || el.NameChanged == nil || el.NameChanged.From != "Save" || el.NameChanged.To != "Saved" {
		t.Errorf("renamed node: %+v %+v", el, el.NameChanged)
	}
}

func TestRefsDoNotSurviveNavigation(t *testing.T) {
	base := servePages(t, map[string]string{"a.html": `<main><button>Next</button></main>`, "b.html": `<main><button>Next</button><button>Other</button></main>`})
	p := openTestTab(t)
	ctx := testCtx(t)
	p.Navigate(ctx, base+"a.html", WaitLoad)
	s1, _ := p.Snapshot(ctx, SnapshotOptions{})
	next := refOf(t, s1.YAML, `button "Next"`)
	p.Navigate(ctx, base+"b.html", WaitLoad)
	// The numbering continues on the new page, so no ref is reused.
	s2, _ := p.Snapshot(ctx, SnapshotOptions{})
	if strings.Contains(s2.YAML, "[ref="+next+"]") {
		t.Fatalf("ref %s reused after navigation:\n%s", next, s2.YAML)
	}
	if _, err := p.ResolveRef(ctx, next); KindOf(err) != KindStaleElement || !strings.Contains(err.Error(), "not known on this page") {
		t.Fatalf("old ref on a new page: %v", err)
	}
}

func TestSnapshotSinceAndPreserveRefs(t *testing.T) {
	p := loadHTML(t, refsPage)
	ctx := testCtx(t)
	s1, _ := p.Snapshot(ctx, SnapshotOptions{})
	same, err := p.Snapshot(ctx, SnapshotOptions{Since: s1.SnapshotID})
	if err != nil || !same.Unchanged || same.SnapshotID != s1.SnapshotID {
		t.Fatalf("unchanged page: %+v %v", same, err)
	}
	p.Eval(ctx, `render('Store', 2)`)
	changed, _ := p.Snapshot(ctx, SnapshotOptions{Since: s1.SnapshotID})
	if changed.Unchanged || snapNum(t, changed.SnapshotID) <= snapNum(t, s1.SnapshotID) || !strings.Contains(changed.YAML, `button "Store"`) {
		t.Fatalf("changed page: %+v", changed)
	}
	// preserveRefs false forgets earlier refs: the Cancel button gets a new one.
	oldCancel := refOf(t, changed.YAML, `button "Cancel"`)
	fresh, _ := p.Snapshot(ctx, SnapshotOptions{ResetRefs: true})
	if got := refOf(t, fresh.YAML, `button "Cancel"`); got == oldCancel {
		t.Errorf("preserveRefs false kept %s", got)
	}
}

func TestInternalSnapshotKeepsID(t *testing.T) {
	p := loadHTML(t, refsPage)
	ctx := testCtx(t)
	p.Snapshot(ctx, SnapshotOptions{}) // installs the engine (which takes a number of its own)
	first, _ := p.Snapshot(ctx, SnapshotOptions{})
	in, _ := p.Snapshot(ctx, SnapshotOptions{Internal: true})
	if in.SnapshotID != "" {
		t.Errorf("internal snapshot took id %s", in.SnapshotID)
	}
	next, _ := p.Snapshot(ctx, SnapshotOptions{})
	if want := fmt.Sprintf("s%d", snapNum(t, first.SnapshotID)+1); next.SnapshotID != want {
		t.Errorf("next agent snapshot %s, want %s", next.SnapshotID, want)
	}
}

func TestViewportOnly(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<main>`)
	for i := range 60 {
		b.WriteString(`<p style="height:40px;margin:0"><button>B` + itoa(i) + `</button></p>`)
	}
	b.WriteString(`</main>`)
	p := loadHTML(t, b.String())
	ctx := testCtx(t)
	full, _ := p.Snapshot(ctx, SnapshotOptions{})
	view, _ := p.Snapshot(ctx, SnapshotOptions{ViewportOnly: true, Internal: true})
	if !strings.Contains(view.YAML, `"B0"`) || strings.Contains(view.YAML, `"B59"`) || !strings.Contains(full.YAML, `"B59"`) {
		t.Fatalf("viewport snapshot:\n%s", view.YAML)
	}
	p.Eval(ctx, `window.scrollTo(0, document.body.scrollHeight)`)
	view, _ = p.Snapshot(ctx, SnapshotOptions{ViewportOnly: true, Internal: true})
	if strings.Contains(view.YAML, `"B0"`) || !strings.Contains(view.YAML, `"B59"`) {
		t.Fatalf("scrolled viewport snapshot:\n%s", view.YAML)
	}
	// Refs stay those of the full snapshot.
	if refOf(t, view.YAML, `"B59"`) != refOf(t, full.YAML, `"B59"`) {
		t.Error("viewport snapshot changed refs")
	}
}

func TestMaxElementsTruncates(t *testing.T) {
	p := loadHTML(t, `<main><button>a</button><button>b</button><button>c</button><button>d</button></main>`)
	s, _ := p.Snapshot(testCtx(t), SnapshotOptions{MaxElements: 3})
	if !s.Truncated || strings.Contains(s.YAML, `"d"`) {
		t.Fatalf("truncated=%v:\n%s", s.Truncated, s.YAML)
	}
}

func TestSnapshotRootErrors(t *testing.T) {
	p := loadHTML(t, `<main><nav aria-label="Side"><a href="/x">X</a></nav></main>`)
	ctx := testCtx(t)
	if _, err := p.Snapshot(ctx, SnapshotOptions{Root: "[[bad"}); KindOf(err) != KindSelector {
		t.Errorf("bad selector: %v", err)
	}
	if _, err := p.Snapshot(ctx, SnapshotOptions{Root: "#missing"}); KindOf(err) != KindElementNotFound {
		t.Errorf("missing root: %v", err)
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{Root: "role=navigation"})
	if err != nil || !strings.HasPrefix(s.YAML, `- navigation "Side":`) {
		t.Errorf("role root: %v\n%v", err, s)
	}
	if _, err := p.Snapshot(ctx, SnapshotOptions{Detail: "everything"}); KindOf(err) != KindStepValidation {
		t.Errorf("bad detail: %v", err)
	}
}

func TestSearch(t *testing.T) {
	p := loadHTML(t, `<main><h1>Shop</h1><nav aria-label="Cats"><a href="/a">Apples</a><a href="/p">Pears</a></nav>
<form><label>Apple count <input value="3"></label><button>Buy apples</button></form></main>`)
	ctx := testCtx(t)
	r, err := p.Search(ctx, SearchOptions{Text: "apple"})
	if err != nil {
		t.Fatal(err)
	}
	if r.MatchCount != 3 {
		t.Fatalf("matches: %+v", r.Matches)
	}
	link := r.Matches[0]
	if link["role"] != "link" || link["name"] != "Apples" || link["ref"] == nil || link["path"] != `main > navigation "Cats"` || link["box"] == nil {
		t.Errorf("first match = %v", link)
	}
	// The ref works like any snapshot ref.
	if _, err := p.ResolveRef(ctx, link["ref"].(string)); err != nil {
		t.Errorf("search ref: %v", err)
	}
	r, _ = p.Search(ctx, SearchOptions{Role: "button", Pattern: "^buy"})
	if r.MatchCount != 1 || r.Matches[0]["name"] != "Buy apples" {
		t.Errorf("role+pattern: %+v", r.Matches)
	}
	r, _ = p.Search(ctx, SearchOptions{Text: "Pears", Exact: true})
	if r.MatchCount != 1 {
		t.Errorf("exact: %+v", r.Matches)
	}
	r, _ = p.Search(ctx, SearchOptions{Text: "apple", Limit: 1})
	if len(r.Matches) != 1 || r.MatchCount != 3 {
		t.Errorf("limit: %d of %d", len(r.Matches), r.MatchCount)
	}
	box := r.Matches[0]["box"].(map[string]any)
	x, y := box["x"].(float64)+box["width"].(float64)/2, box["y"].(float64)+box["height"].(float64)/2
	r, _ = p.Search(ctx, SearchOptions{Near: &NearPoint{X: x, Y: y, Radius: 5}})
	if r.MatchCount != 1 || r.Matches[0]["name"] != "Apples" {
		t.Errorf("near: %+v", r.Matches)
	}
	if _, err := p.Search(ctx, SearchOptions{Pattern: "(("}); KindOf(err) != KindStepValidation {
		t.Errorf("bad pattern: %v", err)
	}
}

func TestQueryNameAndRoleAgreeWithSnapshot(t *testing.T) {
	p := loadHTML(t, refsPage+`<form><label for="e">E-mail</label><input id="e"><input type="checkbox" aria-label="Agree" checked><h2>Part</h2></form>`)
	ctx := testCtx(t)
	s, _ := p.Snapshot(ctx, SnapshotOptions{Root: "body"})
	q, err := p.Query(ctx, QueryOptions{Selector: "button, input, h2", Output: []string{"name", "role"}, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range q.Results {
		v := r["value"].(map[string]any)
		line := v["role"].(string) + ` "` + v["name"].(string) + `"`
		if !strings.Contains(s.YAML, line) {
			t.Errorf("query says %s; the snapshot has no such line:\n%s", line, s.YAML)
		}
		if ref, _ := r["ref"].(string); ref == "" {
			t.Errorf("result without ref: %v", r)
		}
	}
	byRole, _ := p.Query(ctx, QueryOptions{Roles: []string{"checkbox"}, Checked: ptr(true)})
	if byRole.Total != 1 || byRole.Results[0]["name"] != "Agree" {
		t.Errorf("role query: %+v", byRole)
	}
	count, _ := p.Query(ctx, QueryOptions{Roles: []string{"button"}, Name: "delete", CountOnly: true})
	if count.Total != 2 || count.Results != nil {
		t.Errorf("countOnly: %+v", count)
	}
	attrs, _ := p.Query(ctx, QueryOptions{Selector: "#save", Output: map[string]any{"attributes": []string{"id", "data-gen"}}})
	if v := attrs.Results[0]["value"].(map[string]any); v["id"] != "save" || v["data-gen"] != "1" {
		t.Errorf("attributes: %v", v)
	}
	if _, err := p.Query(ctx, QueryOptions{Selector: "button", Output: "colour"}); KindOf(err) != KindStepValidation {
		t.Errorf("bad output mode: %v", err)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

var _ = context.Background

// TestCallOnEmptyArguments checks that arguments whose JSON is empty ({},
// [], "") reach the page as themselves, not as undefined.
func TestCallOnEmptyArguments(t *testing.T) {
	p := loadHTML(t, refsPage)
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	el, err := p.ResolveRef(ctx, refOf(t, s.YAML, `button "Save"`))
	if err != nil {
		t.Fatal(err)
	}
	var got string
	fn := `(el, o, a, s, n) => [typeof o, Array.isArray(a), JSON.stringify(s), n].join(",")`
	if err := el.Call(ctx, &got, fn, map[string]any{}, []int{}, "", 0); err != nil {
		t.Fatal(err)
	}
	if got != `object,true,"",0` {
		t.Errorf("arguments arrived as %q", got)
	}
}
