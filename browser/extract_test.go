package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// shortCtx is a context that ends after d, for waits that must miss.
func shortCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func extract(t *testing.T, p *Page, o ExtractOptions) string {
	t.Helper()
	res, err := p.Extract(testCtx(t), o)
	if err != nil {
		t.Fatalf("extract %+v: %v", o, err)
	}
	return jsonOf(t, res)
}

func TestExtractTableWithHeaderAndRowspan(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	got := extract(t, p, ExtractOptions{Selector: "#prices"})
	want := `{"type":"table","caption":"Prices","headers":["Item","Price","Change","In stock","Updated"],"rows":[` +
		`["Apple","$1.20","5%","yes","2024-01-05"],` +
		`["Pear","$2.00","-3%","no","2024-02-10"],` +
		`["Pear","$2.50","0%","yes","2024-03-01"],` +
		`["Plum red","$10.50","12.5%","yes","Mar 3, 2024"]],` +
		`"rowCount":4,"types":["text","currency","percent","boolean","date"]}`
	if got != want {
		t.Errorf("prices:\n got %s\nwant %s", got, want)
	}
	got = extract(t, p, ExtractOptions{Selector: "#prices", Limit: 2})
	if !strings.Contains(got, `"rowCount":2,`) || !strings.HasSuffix(got, `"truncated":true,"totalRows":4,"nextPage":{"extract":{"limit":2,"offset":2,"selector":"#prices"}}}`) || strings.Contains(got, "Plum") {
		t.Errorf("limit 2: %s", got)
	}
	// The next page carries the rowspan laid out above it: the second
	// Pear row keeps its name.
	got = extract(t, p, ExtractOptions{Selector: "#prices", Limit: 2, Offset: 2})
	want = `{"type":"table","caption":"Prices","headers":["Item","Price","Change","In stock","Updated"],"rows":[` +
		`["Pear","$2.50","0%","yes","2024-03-01"],` +
		`["Plum red","$10.50","12.5%","yes","Mar 3, 2024"]],` +
		`"rowCount":2,"types":["text","currency","percent","boolean","date"],"totalRows":4,"offset":2}`
	if got != want {
		t.Errorf("offset 2:\n got %s\nwant %s", got, want)
	}
}

func TestExtractTableColspanFirstRowHeaders(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	// The container holds a table: auto finds it. Its first row is <th>
	// cells, so it is the header; colspans repeat their text.
	want := `{"type":"table","headers":["Region","H1","H1"],"rows":[["North","10","20"],["South","closed","closed"]],"rowCount":2,"types":["text","text","text"]}`
	if got := extract(t, p, ExtractOptions{Selector: "#quarters-box"}); got != want {
		t.Errorf("quarters:\n got %s\nwant %s", got, want)
	}
	no := false
	if got := extract(t, p, ExtractOptions{Selector: "#quarters", Headers: &no}); !strings.Contains(got, `"headers":[],"rows":[["Region","H1","H1"],`) {
		t.Errorf("headers false: %s", got)
	}
	want = `{"type":"table","headers":[],"rows":[["a","1"],["b","2"]],"rowCount":2,"types":["text","number"]}`
	if got := extract(t, p, ExtractOptions{Selector: "#noheads", Type: "table"}); got != want {
		t.Errorf("no header row:\n got %s\nwant %s", got, want)
	}
	yes := true
	if got := extract(t, p, ExtractOptions{Selector: "#noheads", Headers: &yes}); !strings.Contains(got, `"headers":["a","1"],"rows":[["b","2"]]`) {
		t.Errorf("headers true: %s", got)
	}
}

func TestExtractAriaTable(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	want := `{"type":"table","headers":["Name","Age"],"rows":[["Ann","31"],["Bob","4,200"]],"rowCount":2,"types":["text","number"]}`
	if got := extract(t, p, ExtractOptions{Selector: "#aria"}); got != want {
		t.Errorf("aria table:\n got %s\nwant %s", got, want)
	}
}

func TestExtractNestedLists(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	want := `{"type":"list","items":["Home",{"items":["Fruit",{"items":["Root","Leaf"],"text":"Vegetables"}],"text":"Products"},"Contact us"],"itemCount":3}`
	if got := extract(t, p, ExtractOptions{Selector: "#menu"}); got != want {
		t.Errorf("menu:\n got %s\nwant %s", got, want)
	}
	want = `{"type":"list","items":["One","Two"],"itemCount":2,"ordered":true,"truncated":true,"totalItems":3,"nextPage":{"extract":{"limit":2,"offset":2,"selector":"#wrapped"}}}`
	if got := extract(t, p, ExtractOptions{Selector: "#wrapped", Limit: 2}); got != want {
		t.Errorf("wrapped ol:\n got %s\nwant %s", got, want)
	}
	want = `{"type":"list","items":["Three"],"itemCount":1,"ordered":true,"totalItems":3,"offset":2}`
	if got := extract(t, p, ExtractOptions{Selector: "#wrapped", Limit: 2, Offset: 2}); got != want {
		t.Errorf("wrapped ol, second page:\n got %s\nwant %s", got, want)
	}
	want = `{"type":"list","items":["Alpha","Beta"],"itemCount":2}`
	if got := extract(t, p, ExtractOptions{Selector: "#cards", Type: "list"}); got != want {
		t.Errorf("cards as a list:\n got %s\nwant %s", got, want)
	}
}

func TestExtractErrors(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	ctx := testCtx(t)
	_, err := p.Extract(ctx, ExtractOptions{Selector: "#cards"})
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), `no table or list`) || !strings.Contains(err.Error(), `give type: "table" or "list"`) {
		t.Errorf("no structure: %v", err)
	}
	if _, err = p.Extract(ctx, ExtractOptions{Selector: "#plain", Type: "table"}); KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "no table or rows inside p#plain") {
		t.Errorf("no table: %v", err)
	}
	// A missing element is waited for, then fails as an action's target
	// does: ElementNotFoundError with the query for near matches.
	_, err = p.Extract(shortCtx(t, 2*time.Second), ExtractOptions{Selector: "#nothing"})
	var e *Error
	if !asError(err, &e) || e.Kind != KindElementNotFound || !regexp.MustCompile(`^no element matches selector "#nothing" \(waited [\d.]+m?s\)$`).MatchString(e.Message) || e.Details["query"] != "#nothing" {
		t.Errorf("no element: %v (%+v)", err, e)
	}
	if _, err = p.Extract(ctx, ExtractOptions{Selector: "#prices", Type: "grid"}); KindOf(err) != KindStepValidation {
		t.Errorf("bad type: %v", err)
	}
	if _, err = p.Extract(ctx, ExtractOptions{Selector: "##"}); KindOf(err) != KindSelector {
		t.Errorf("bad selector: %v", err)
	}
}

func TestInspectCountsAndCustomSelectors(t *testing.T) {
	p, base := openFixture(t, "extract.html")
	res, err := p.Inspect(testCtx(t), InspectOptions{Selectors: []string{"li", "button"}, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Title != "Extract" || res.URL != base+"act/extract.html" {
		t.Errorf("title/url: %+v", res)
	}
	want := `{"a":1,"button":2,"input":0,"textarea":0,"select":0,"h1":1,"h2":0,"h3":0,"img":1,"form":0}`
	if got := jsonOf(t, res.Elements); got != want {
		t.Errorf("counts: %s", got)
	}
	want = `[{"selector":"li","count":10,"values":["Home","Products Fruit Vegetables Root Leaf"]},{"selector":"button","count":2,"values":["One","Two"]}]`
	if got := jsonOf(t, res.Custom); got != want {
		t.Errorf("custom:\n got %s\nwant %s", got, want)
	}
	if _, err := p.Inspect(testCtx(t), InspectOptions{Selectors: []string{"a[["}}); KindOf(err) != KindSelector {
		t.Errorf("bad selector: %v", err)
	}
}

func TestGetDomSmallAndSpilled(t *testing.T) {
	useStateDir(t, t.TempDir())
	p, _ := openFixture(t, "extract.html")
	ctx := testCtx(t)
	d, err := p.GetDOM(ctx, DOMOptions{Selector: "#wrapped"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"html":"<div id=\"wrapped\"><ol><li>One</li><li>Two</li><li>Three</li></ol></div>","tagName":"div","selector":"#wrapped","length":71}`
	if got := jsonOf(t, d); got != want {
		t.Errorf("outer:\n got %s\nwant %s", got, want)
	}
	if d, err = p.GetDOM(ctx, DOMOptions{Selector: "#wrapped ol", Inner: true}); err != nil || d.HTML != "<li>One</li><li>Two</li><li>Three</li>" || d.TagName != "ol" {
		t.Errorf("inner: %+v %v", d, err)
	}
	if d, err = p.GetDOM(ctx, DOMOptions{}); err != nil || !strings.HasPrefix(d.HTML, "<html><head><title>Extract</title>") || d.TagName != "html" || d.File != "" {
		t.Errorf("document: %.80s %v", d.HTML, err)
	}
	if _, err = p.GetDOM(shortCtx(t, 400*time.Millisecond), DOMOptions{Selector: "#missing"}); KindOf(err) != KindElementNotFound {
		t.Errorf("missing: %v", err)
	}
	// 60 000 characters of é: twice as many bytes, spilled to a file.
	js(t, p, `document.getElementById('plain').textContent = 'é'.repeat(60000)`)
	d, err = p.GetDOM(ctx, DOMOptions{Selector: "#plain"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(d.File)
	if err != nil || d.Length != 60000+len(`<p id="plain"></p>`) || !d.Truncated || len(d.HTML) != DOMPreview || !strings.HasPrefix(string(data), d.HTML) || len(data) != 120000+len(`<p id="plain"></p>`) {
		t.Errorf("spilled: length %d, inline %d bytes, file %q (%d bytes, %v)", d.Length, len(d.HTML), d.File, len(data), err)
	}
}

func TestGetBoxFoundHiddenStaleUnknown(t *testing.T) {
	p, _ := openFixture(t, "points.html")
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ok, link := refOf(t, s.YAML, `button "OK"`), refOf(t, s.YAML, `link "Go"`)
	para, err := p.ElementAt(ctx, Point{X: 30, Y: 110})
	if err != nil || para.Tag != "p" {
		t.Fatalf("paragraph: %+v %v", para, err)
	}
	js(t, p, `document.getElementById('link').style.visibility = 'hidden'; document.getElementById('para').remove()`)
	boxes, err := p.GetBox(ctx, []string{ok, link, para.Ref, "s99e99"})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"x":10,"y":10,"width":100,"height":40,"center":{"x":60,"y":30}},` +
		`{"error":"hidden","box":{"x":60,"y":130,"width":40,"height":20}},` +
		`{"error":"stale","message":"the element left the page and no element with the same role and name is there now"},` +
		`{"error":"not found"}]`
	if got := jsonOf(t, boxes); got != want {
		t.Errorf("boxes:\n got %s\nwant %s", got, want)
	}
	if boxes[2].Ref != para.Ref {
		t.Errorf("boxes are not in the order asked: %+v", boxes)
	}
	if _, err := p.GetBox(ctx, []string{"#ok"}); KindOf(err) != KindStepValidation {
		t.Errorf("not a ref: %v", err)
	}
}

func TestElementsAtPointBatchAndNearby(t *testing.T) {
	p, _ := openFixture(t, "points.html")
	ctx := testCtx(t)
	// The label inside the button reports the button.
	e, err := p.ElementAt(ctx, Point{X: 30, Y: 20})
	if err != nil {
		t.Fatal(err)
	}
	// Snapshot numbers are shared by all tabs: this tab's refs are s<k>e….
	k := strings.TrimSuffix(e.Ref, "e1")
	want := `{"ref":"s1e1","existing":false,"tag":"button","selector":"#ok","clickable":true,"role":"button","name":"OK","box":{"x":10,"y":10,"width":100,"height":40}}`
	want = strings.ReplaceAll(want, `"s1e`, `"`+k+`e`)
	if got := jsonOf(t, e); got != want {
		t.Errorf("point:\n got %s\nwant %s", got, want)
	}
	again, err := p.ElementAt(ctx, Point{X: 100, Y: 45})
	if err != nil || again.Ref != e.Ref || !again.Existing {
		t.Errorf("second look at the button: %+v %v", again, err)
	}
	// The ref works for actions.
	if el, err := p.ResolveRef(ctx, e.Ref); err != nil || attr(t, p, el, "id") != "ok" {
		t.Errorf("resolve %s: %v", e.Ref, err)
	}
	res, err := p.ElementsAt(ctx, []Point{{X: 250, Y: 50}, {X: 50, Y: 220}, {X: 5000, Y: 5000}})
	if err != nil {
		t.Fatal(err)
	}
	want = `[{"x":250,"y":50,"ref":"s1e2","existing":false,"tag":"div","selector":"#card","clickable":true,"role":"generic","name":"Card","box":{"x":200,"y":10,"width":100,"height":100}},` +
		`{"x":50,"y":220,"ref":"s1e3","existing":false,"tag":"button","selector":"button","clickable":true,"role":"button","name":"Shadow","box":{"x":10,"y":200,"width":100,"height":40}},` +
		`{"x":5000,"y":5000,"existing":false,"clickable":false,"name":"","error":"no element at (5000, 5000)"}]`
	want = strings.ReplaceAll(want, `"s1e`, `"`+k+`e`)
	if got := jsonOf(t, res); got != want {
		t.Errorf("batch:\n got %s\nwant %s", got, want)
	}
	if _, err := p.ElementAt(ctx, Point{X: -5, Y: 10}); KindOf(err) != KindElementNotFound {
		t.Errorf("outside the viewport: %v", err)
	}
	near, err := p.ElementsNear(ctx, Point{X: 60, Y: 110}, NearOptions{Radius: 60})
	if err != nil {
		t.Fatal(err)
	}
	want = `{"center":{"x":60,"y":110},"radius":60,"count":2,"elements":[` +
		`{"ref":"s1e4","existing":false,"tag":"p","selector":"#para","clickable":false,"role":"paragraph","name":"","distance":0,"box":{"x":10,"y":100,"width":100,"height":20}},` +
		`{"ref":"s1e5","existing":false,"tag":"a","selector":"#link","clickable":true,"role":"link","name":"Go","distance":36.1,"box":{"x":60,"y":130,"width":40,"height":20}}]}`
	want = strings.ReplaceAll(want, `"s1e`, `"`+k+`e`)
	if got := jsonOf(t, near); got != want {
		t.Errorf("nearby:\n got %s\nwant %s", got, want)
	}
	near, err = p.ElementsNear(ctx, Point{X: 60, Y: 110}, NearOptions{Radius: 200, Limit: 2})
	if err != nil || near.Count != 2 || !near.Truncated || near.Elements[0].Tag != "p" {
		t.Errorf("nearby with limit: %s %v", jsonOf(t, near), err)
	}
}

func formErrors(t *testing.T, res *SubmitResult, err error) []FieldError {
	t.Helper()
	if err != nil || res == nil {
		t.Fatalf("an invalid form's submit failed: %v", err)
	}
	if res.Submitted || res.Valid || len(res.Warnings) == 0 {
		t.Errorf("an invalid form's submit: %+v", res)
	}
	return res.Errors
}

func TestFormStateReadsFields(t *testing.T) {
	p, _ := openFixture(t, "readform.html")
	fs, err := p.FormState(testCtx(t), "#signup")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fields":[` +
		`{"name":"name","type":"text","label":"Full name","value":"","required":true,"valid":false,"disabled":false,"validationMessage":"Please fill out this field."},` +
		`{"name":"email","type":"email","label":"Email","value":"not-an-email","required":false,"valid":false,"disabled":false,"validationMessage":"Please include an '@' in the email address. 'not-an-email' is missing an '@'."},` +
		`{"name":"pw","type":"password","label":"Password","value":"••••••••","required":false,"valid":true,"disabled":false},` +
		`{"name":"age","type":"number","label":"Age","value":"12","required":false,"valid":false,"disabled":false,"validationMessage":"Value must be greater than or equal to 18."},` +
		`{"name":"terms","type":"checkbox","label":"Terms","value":"on","checked":true,"required":false,"valid":true,"disabled":false},` +
		`{"name":"plan","type":"select-one","label":"Plan","value":"pro","required":false,"valid":true,"disabled":false},` +
		`{"name":"nick","type":"text","label":"Nick","value":"","required":false,"valid":true,"disabled":true}],` +
		`"valid":false,"fieldCount":7}`
	if got := jsonOf(t, fs); got != want {
		t.Errorf("form state:\n got %s\nwant %s", got, want)
	}
	// A button stands for its form; a container for the fields inside.
	if fs, err = p.FormState(testCtx(t), "#find"); err != nil || fs.FieldCount != 1 || fs.Fields[0].Name != "q" || !fs.Valid {
		t.Errorf("by button: %+v %v", fs, err)
	}
	if fs, err = p.FormState(testCtx(t), "#loose"); err != nil || fs.FieldCount != 1 || fs.Fields[0].Label != "Solo" {
		t.Errorf("container: %+v %v", fs, err)
	}
	if _, err = p.FormState(testCtx(t), "#note"); KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "not a form") {
		t.Errorf("not a form: %v", err)
	}
}

func TestValidateField(t *testing.T) {
	p, _ := openFixture(t, "readform.html")
	ctx := testCtx(t)
	v, err := p.Validate(ctx, "#age")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"valid":false,"message":"Value must be greater than or equal to 18.","validity":{"valueMissing":false,"typeMismatch":false,"patternMismatch":false,"tooLong":false,"tooShort":false,"rangeUnderflow":true,"rangeOverflow":false,"stepMismatch":false,"badInput":false,"customError":false}}`
	if got := jsonOf(t, v); got != want {
		t.Errorf("age:\n got %s\nwant %s", got, want)
	}
	if v, err = p.Validate(ctx, "#email"); err != nil || v.Valid || !v.Validity.TypeMismatch {
		t.Errorf("email: %+v %v", v, err)
	}
	if v, err = p.Validate(ctx, "#nick"); err != nil || !v.Valid || v.WillValidate == nil || *v.WillValidate {
		t.Errorf("disabled: %+v %v", v, err)
	}
	if _, err = p.Validate(ctx, "#note"); KindOf(err) != KindElementNotEditable {
		t.Errorf("not a field: %v", err)
	}
}

func TestSubmitRefusesInvalidThenSubmits(t *testing.T) {
	p, base := openFixture(t, "readform.html")
	ctx := testCtx(t)
	res, err := p.Submit(ctx, "#signup")
	errs := formErrors(t, res, err)
	want := `[{"field":"name","label":"Full name","message":"Please fill out this field."},` +
		`{"field":"email","label":"Email","message":"Please include an '@' in the email address. 'not-an-email' is missing an '@'."},` +
		`{"field":"age","label":"Age","message":"Value must be greater than or equal to 18."}]`
	if got := jsonOf(t, errs); got != want {
		t.Errorf("errors:\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(res.Warnings[0], `not submitted: 3 field(s) are invalid: name ("Full name"): Please fill out this field.`) {
		t.Errorf("warning: %v", res.Warnings)
	}
	if got := js(t, p, "window.submitted"); got != "null" {
		t.Fatalf("an invalid form was submitted: %s", got)
	}
	for sel, v := range map[string]string{"#name": "Ann", "#email": "ann@example.com", "#age": "30"} {
		if _, err := p.Fill(ctx, Target{Selector: sel}, v, FillOptions{Clear: true}); err != nil {
			t.Fatalf("fill %s: %v", sel, err)
		}
	}
	// The form's handler calls preventDefault: it ran, but the browser
	// submitted nothing itself.
	res, err = p.Submit(ctx, "#go")
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, res); got != `{"submitted":false,"valid":true,"prevented":true}` {
		t.Errorf("submit: %s", got)
	}
	if got := js(t, p, "[window.submitted, window.payload.name, window.payload.age, window.payload.pw]"); got != `[1,"Ann","30","secret"]` {
		t.Errorf("the page's submit handler saw %s", got)
	}
	// A form without a handler navigates; submit waits for the new page.
	res, err = p.Submit(ctx, "#search")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Navigated || res.NewURL != base+"act/other.html?q=pears" {
		t.Errorf("navigating submit: %s", jsonOf(t, res))
	}
	if _, err = p.Submit(ctx, "h1"); KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "not a form and is not inside one") {
		t.Errorf("not a form: %v", err)
	}
}

func TestAssertPassAndFail(t *testing.T) {
	p, base := openFixture(t, "readform.html")
	ctx := testCtx(t)
	text := "full NAME"
	res, err := p.Assert(ctx, AssertOptions{URL: []URLCheck{{"contains", "/act/"}, {"endsWith", "readform.html"}, {"matches", `^http://127\.0\.0\.1:\d+/`}}, Text: &text, Selector: "#signup"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"passed":true,"assertions":[` +
		`{"type":"url","condition":"contains","expected":"/act/","actual":"` + base + `act/readform.html","passed":true},` +
		`{"type":"url","condition":"endsWith","expected":"readform.html","actual":"` + base + `act/readform.html","passed":true},` +
		`{"type":"url","condition":"matches","expected":"^http://127\\.0\\.0\\.1:\\d+/","actual":"` + base + `act/readform.html","passed":true},` +
		`{"type":"text","selector":"#signup","expected":"full NAME","actual":"Full name Email Password Age Terms Free Pro Creat…","passed":true}]}`
	if got := jsonOf(t, res); got != want {
		t.Errorf("pass:\n got %s\nwant %s", got, want)
	}
	text = "Welcome back"
	_, err = p.Assert(ctx, AssertOptions{URL: []URLCheck{{"equals", base + "done.html"}, {"startsWith", "http"}}, Text: &text, CaseSensitive: true})
	var e *Error
	if !asError(err, &e) || e.Kind != KindAssertion {
		t.Fatalf("fail: %v", err)
	}
	wantMsg := `2 of 3 assertion(s) failed: url does not equal "` + base + `done.html" (actual: "` + base + `act/readform.html"); text "Welcome back" not found in body (actual: "Full name Email Password Age Terms Free Pro Create account Find Not a form")`
	if err.Error() != wantMsg {
		t.Errorf("message:\n got %s\nwant %s", err.Error(), wantMsg)
	}
	if a, _ := e.Details["assertions"].([]Assertion); len(a) != 3 || !a[1].Passed || a[0].Passed {
		t.Errorf("details: %+v", e.Details)
	}
	// A missing element fails the assertion (not the step) once the
	// step's time is spent, saying how long it waited: about the second
	// the context gives (less its lookup margin and the setup before the
	// wait), and no longer than the call took. On a slow machine the
	// figure is what it really waited, so it is checked against that, not
	// against a fixed 900ms.
	text = "x"
	began := time.Now()
	_, err = p.Assert(shortCtx(t, time.Second), AssertOptions{Text: &text, Selector: "#gone"})
	took := time.Since(began)
	m := regexp.MustCompile(`^1 of 1 assertion\(s\) failed: text "x": no element matches selector "#gone" \(waited ([0-9.]+m?s)\)$`).FindStringSubmatch(fmt.Sprint(err))
	if !asError(err, &e) || e.Kind != KindAssertion || m == nil {
		t.Fatalf("missing element: %v", err)
	}
	if waited, _ := time.ParseDuration(m[1]); waited < 500*time.Millisecond || waited > took+50*time.Millisecond || took >= DefaultActionTimeout {
		t.Errorf("missing element: reported waiting %s, the call took %s (the context allowed 1s)", m[1], took)
	}
	if _, err = p.Assert(ctx, AssertOptions{URL: []URLCheck{{"matches", "("}}}); KindOf(err) != KindStepValidation {
		t.Errorf("bad regexp: %v", err)
	}
	if _, err = p.Assert(ctx, AssertOptions{}); KindOf(err) != KindStepValidation {
		t.Errorf("nothing to assert: %v", err)
	}
}

func TestConsoleLevelsLimitStackAndClear(t *testing.T) {
	p, _ := openFixture(t, "points.html")
	ctx := testCtx(t)
	js(t, p, `console.log('one'); console.warn('two'); console.error('three', 3); console.info('four'); logDeep()`)
	read := func(o ConsoleOptions) *ConsoleRead {
		t.Helper()
		r, err := p.Console().Read(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	texts := func(r *ConsoleRead) string {
		var s []string
		for _, m := range r.Messages {
			s = append(s, m.Level+":"+m.Text)
		}
		return strings.Join(s, ",")
	}
	all := read(ConsoleOptions{})
	if all.Total != 5 || all.Showing != 5 || texts(all) != "log:one,warning:two,error:three 3,info:four,error:deep trouble" {
		t.Fatalf("all: %s", jsonOf(t, all))
	}
	if all.Messages[0].Type != "console" || all.Messages[0].Stack != nil || all.Messages[0].Time <= 0 {
		t.Errorf("message: %s", jsonOf(t, all.Messages[0]))
	}
	if r := read(ConsoleOptions{Level: "warn"}); texts(r) != "warning:two" {
		t.Errorf("warnings: %s", texts(r))
	}
	if r := read(ConsoleOptions{Level: "error", StackTrace: true}); r.Total != 2 || r.Messages[1].Stack[0].Function != "logDeep" || !strings.HasSuffix(r.Messages[1].URL, "points.html") {
		t.Errorf("errors with stacks: %s", jsonOf(t, r))
	}
	if r := read(ConsoleOptions{Limit: 2}); r.Total != 5 || r.Showing != 2 || texts(r) != "info:four,error:deep trouble" {
		t.Errorf("limit: %s", jsonOf(t, r))
	}
	if r := read(ConsoleOptions{Since: all.Messages[2].Time - 0.001}); texts(r) != "error:three 3,info:four,error:deep trouble" {
		t.Errorf("since: %s", texts(r))
	}
	js(t, p, `setTimeout(() => { throw new Error('kaboom'); }, 0)`)
	var ex *ConsoleRead
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ex = read(ConsoleOptions{Type: "exception"}); ex.Total > 0 {
			break
		}
	}
	if ex.Total != 1 || ex.Messages[0].Level != "error" || !strings.Contains(ex.Messages[0].Text, "kaboom") {
		t.Errorf("exception: %s", jsonOf(t, ex))
	}
	if r := read(ConsoleOptions{Clear: true}); r.Total != 6 {
		t.Errorf("before clear: %s", texts(r))
	}
	if r := read(ConsoleOptions{}); r.Total != 0 || r.Messages == nil {
		t.Errorf("after clear: %s", jsonOf(t, r))
	}
	if _, err := p.Console().Read(ctx, ConsoleOptions{Level: "loud"}); KindOf(err) != KindStepValidation {
		t.Errorf("bad level: %v", err)
	}
}

func TestAssertCaseInsensitiveKeepsOffsets(t *testing.T) {
	p, _ := openFixture(t, "readform.html")
	ctx := testCtx(t)
	// strings.ToLower changes these letters' byte lengths: 'İ' (2 bytes)
	// becomes 1, 'Ⱥ' (2) becomes 3, the Kelvin sign (3) becomes 1. The
	// match must be found and cut in the text itself.
	js(t, p, `document.body.insertAdjacentHTML('beforeend', '<p id="dotted">' + 'İ'.repeat(30) + ' Straße 5</p>'
		+ '<p id="stroke">' + 'Ⱥ'.repeat(60) + ' end</p><p id="kelvin">300 \u212A and more</p>')`)
	cases := []struct{ sel, text, want string }{
		{"#dotted", "straße", "…" + strings.Repeat("İ", 20) + " Straße 5"},
		{"#stroke", "END", "…" + strings.Repeat("Ⱥ", 20) + " end"},
		{"#stroke", "ⱥⱥ end", "…" + strings.Repeat("Ⱥ", 22) + " end"},
		{"#kelvin", "300 k AND", "300 \u212A and more"},
	}
	for _, c := range cases {
		text := c.text
		res, err := p.Assert(ctx, AssertOptions{Text: &text, Selector: c.sel})
		if err != nil {
			t.Errorf("%s %q: %v", c.sel, c.text, err)
			continue
		}
		if got := res.Assertions[0].Actual; got != c.want {
			t.Errorf("%s %q: excerpt\n got %q\nwant %q", c.sel, c.text, got, c.want)
		}
	}
}

func TestAssertTextInRefAndShadowRoot(t *testing.T) {
	p, _ := openFixture(t, "readform.html")
	ctx := testCtx(t)
	js(t, p, `const h = document.createElement('div'); h.id = 'host'; document.body.append(h);
		h.attachShadow({mode: 'open'}).innerHTML = '<p id="deep">Hidden in the shadow</p>'`)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	button := refOf(t, s.YAML, `button "Create account"`)
	text := "create ACCOUNT"
	res, err := p.Assert(ctx, AssertOptions{Text: &text, Selector: button})
	if err != nil {
		t.Fatalf("assert in %s: %v", button, err)
	}
	want := `{"passed":true,"assertions":[{"type":"text","selector":"` + button + `","expected":"create ACCOUNT","actual":"Create account","passed":true}]}`
	if got := jsonOf(t, res); got != want {
		t.Errorf("by ref:\n got %s\nwant %s", got, want)
	}
	text = "in the shadow"
	res, err = p.Assert(ctx, AssertOptions{Text: &text, Selector: "#deep", CaseSensitive: true})
	if err != nil {
		t.Fatalf("assert in a shadow root: %v", err)
	}
	if got := res.Assertions[0].Actual; got != "Hidden in the shadow" {
		t.Errorf("shadow excerpt: %q", got)
	}
	// A ref that was never issued is an error, not a passing tag name.
	if _, err = p.Assert(ctx, AssertOptions{Text: &text, Selector: "s9e99"}); KindOf(err) != KindStaleElement {
		t.Errorf("unknown ref: %v", err)
	}
}

func TestExtractLongTableLaysOutShownRowsOnly(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	ctx := testCtx(t)
	// 2000 rows; row 1500 holds an image whose alt text counts its reads.
	js(t, p, `(() => {
		const rows = ['<tr><td>0</td><td rowspan="2">pair</td></tr>', '<tr><td>1</td></tr>'];
		for (let i = 2; i < 2000; i++) rows.push('<tr><td>' + i + '</td><td>' + (i === 1500 ? '<img id="spy">' : i % 2 ? 'odd' : 'even') + '</td></tr>');
		document.querySelector('main').insertAdjacentHTML('beforeend', '<table id="long"><thead><tr><th>N</th><th>Kind</th></tr></thead><tbody>' + rows.join('') + '</tbody></table>');
	})()`)
	// The spy is set where the engine reads, in its own world.
	spy := func(expr string) string {
		t.Helper()
		raw, err := p.engineEval(ctx, expr)
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	spy(`Object.defineProperty(document.getElementById('spy'), 'alt', {get() { window.altReads = (window.altReads || 0) + 1; return 'spy'; }}), 1`)
	want := `{"type":"table","headers":["N","Kind"],"rows":[["0","pair"],["1","pair"],["2","even"]],"rowCount":3,"types":["number","text"],"truncated":true,"totalRows":2000,"nextPage":{"extract":{"limit":3,"offset":3,"selector":"#long"}}}`
	if got := extract(t, p, ExtractOptions{Selector: "#long", Limit: 3}); got != want {
		t.Errorf("limit 3:\n got %s\nwant %s", got, want)
	}
	if got := spy("window.altReads === undefined"); got != "true" {
		t.Errorf("extract with limit 3 read row 1500 (alt read %s times)", spy("window.altReads"))
	}
	// Without the limit in the way, the same row is read (the spy works:
	// the cell's text reads the alt twice, to test it and to take it).
	res, err := p.Extract(ctx, ExtractOptions{Selector: "#long", Limit: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if res.RowCount != 2000 || res.Truncated || jsonOf(t, res.Rows[1500]) != `["1500","spy"]` || spy("window.altReads") != "2" {
		t.Errorf("full table: %d rows, row 1500 %v, alt read %s times", res.RowCount, res.Rows[1500], spy("window.altReads"))
	}
}

// later inserts html at the end of <main> after 300 ms and returns a time
// taken before the timer was set, so the element appears at least 300 ms
// after it however long the round trip takes.
func later(t *testing.T, p *Page, html string) time.Time {
	t.Helper()
	start := time.Now()
	js(t, p, `setTimeout(() => document.querySelector('main').insertAdjacentHTML('beforeend', `+jsString(html)+`), 300)`)
	return start
}

func TestReadStepsWaitForLateElements(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	ctx := testCtx(t)
	waited := func(what string, since time.Time) {
		t.Helper()
		if d := time.Since(since); d < 250*time.Millisecond {
			t.Errorf("%s answered after %s, before the element appeared", what, d)
		}
	}
	start := later(t, p, `<table id="late"><tr><th>K</th><th>V</th></tr><tr><td>a</td><td>1</td></tr></table>`)
	want := `{"type":"table","headers":["K","V"],"rows":[["a","1"]],"rowCount":1,"types":["text","number"]}`
	if got := extract(t, p, ExtractOptions{Selector: "#late"}); got != want {
		t.Errorf("late table:\n got %s\nwant %s", got, want)
	}
	waited("extract", start)

	start = later(t, p, `<form id="lateform"><input name="q" value="pears" aria-label="Query" required></form>`)
	fs, err := p.FormState(ctx, "#lateform")
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, fs); got != `{"fields":[{"name":"q","type":"text","label":"Query","value":"pears","required":true,"valid":true,"disabled":false}],"valid":true,"fieldCount":1}` {
		t.Errorf("late form: %s", got)
	}
	waited("formState", start)

	start = later(t, p, `<input id="latefield" type="email" value="nope">`)
	v, err := p.Validate(ctx, "#latefield")
	if err != nil || v.Valid || !v.Validity.TypeMismatch {
		t.Errorf("late field: %+v %v", v, err)
	}
	waited("validate", start)

	start = later(t, p, `<div id="latediv"><b>bold</b></div>`)
	d, err := p.GetDOM(ctx, DOMOptions{Selector: "#latediv", Inner: true})
	if err != nil || d.HTML != "<b>bold</b>" {
		t.Errorf("late div: %+v %v", d, err)
	}
	waited("getDom", start)

	start = later(t, p, `<section id="latetext">Arrived late</section>`)
	text := "arrived"
	if res, err := p.Assert(ctx, AssertOptions{Text: &text, Selector: "#latetext"}); err != nil || res.Assertions[0].Actual != "Arrived late" {
		t.Errorf("late text: %+v %v", res, err)
	}
	waited("assert", start)

	js(t, p, `window.lateSubmits = 0`)
	start = later(t, p, `<form id="latesubmit" onsubmit="event.preventDefault(); window.lateSubmits++"><button>Send</button></form>`)
	if res, err := p.Submit(ctx, "#latesubmit"); err != nil || !res.Prevented {
		t.Errorf("late submit: %+v %v", res, err)
	}
	waited("submit", start)
	if got := js(t, p, "window.lateSubmits"); got != "1" {
		t.Errorf("the late form's handler ran %s times", got)
	}
}

// TestReadStepsWaitTheirWholeBudget: a read step on a missing element
// looks for it until its time is spent (its last lookup at the deadline,
// not a retry interval before it) and then answers the typed not-found
// error. The bound is causal, so a slow machine cannot break it.
func TestReadStepsWaitTheirWholeBudget(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	reads := []struct {
		name string
		read func(ctx context.Context) error
	}{
		{"getDom", func(ctx context.Context) error { _, err := p.GetDOM(ctx, DOMOptions{Selector: "#nowhere"}); return err }},
		{"formState", func(ctx context.Context) error { _, err := p.FormState(ctx, "#nowhere"); return err }},
		{"extract", func(ctx context.Context) error {
			_, err := p.Extract(ctx, ExtractOptions{Selector: "#nowhere"})
			return err
		}},
	}
	for _, r := range reads {
		began := time.Now()
		ctx, cancel := context.WithTimeout(testCtx(t), time.Second)
		err := r.read(ctx)
		cancel()
		took := time.Since(began)
		if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), `no element matches selector "#nowhere" (waited `) {
			t.Errorf("%s: %v", r.name, err)
		}
		if took < time.Second-lookupMargin {
			t.Errorf("%s gave up after %s of the 1s it had", r.name, took)
		}
	}
}

func TestExtractAndFormStateByRef(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	ctx := testCtx(t)
	// Tables carry no ref in a snapshot; query issues one like it.
	q, err := p.Query(ctx, QueryOptions{Selector: "#quarters"})
	if err != nil || q.Total != 1 {
		t.Fatalf("query: %+v %v", q, err)
	}
	ref, _ := q.Results[0]["ref"].(string)
	want := `{"type":"table","headers":["Region","H1","H1"],"rows":[["North","10","20"],["South","closed","closed"]],"rowCount":2,"types":["text","text","text"]}`
	if got := extract(t, p, ExtractOptions{Selector: ref}); got != want {
		t.Errorf("extract %s:\n got %s\nwant %s", ref, got, want)
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	link := refOf(t, s.YAML, `link "Contact us"`)
	// The link's list item is not a list; the ref reaches the element.
	if _, err := p.Extract(ctx, ExtractOptions{Selector: link}); KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "no table or list") {
		t.Errorf("extract %s: %v", link, err)
	}

	p, _ = openFixture(t, "readform.html")
	if s, err = p.Snapshot(ctx, SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	byRef, err := p.FormState(ctx, refOf(t, s.YAML, `button "Create account"`))
	if err != nil {
		t.Fatal(err)
	}
	bySel, err := p.FormState(ctx, "#signup")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonOf(t, byRef), jsonOf(t, bySel); got != want || byRef.FieldCount != 7 || byRef.Fields[2].Value != "••••••••" {
		t.Errorf("formState by ref:\n got %s\nwant %s", got, want)
	}
	if v, err := p.Validate(ctx, refOf(t, s.YAML, `spinbutton "Age"`)); err != nil || v.Valid || !v.Validity.RangeUnderflow {
		t.Errorf("validate by ref: %+v %v", v, err)
	}
}

func TestSubmitCancelledByPageHandler(t *testing.T) {
	p, base := openFixture(t, "readform.html")
	ctx := testCtx(t)
	js(t, p, `document.querySelector('main').insertAdjacentHTML('beforeend', '<form id="spa" action="/act/other.html"><input name="q" value="x" aria-label="Q"><button id="spago">Go</button></form>');
		document.getElementById('spa').addEventListener('submit', (e) => { e.preventDefault(); window.handled = true; })`)
	res, err := p.Submit(ctx, "#spago")
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, res); got != `{"submitted":false,"valid":true,"prevented":true}` {
		t.Errorf("cancelled submit: %s", got)
	}
	wantWarn := `the page's submit handler cancelled the submission of form#spa (preventDefault) and nothing navigated: the page handles the form in script, so check its outcome (snapshot, assert or wait)`
	if len(res.Warnings) != 1 || res.Warnings[0] != wantWarn {
		t.Errorf("warnings: %q", res.Warnings)
	}
	if got := js(t, p, "[window.handled, location.pathname]"); got != `[true,"/act/readform.html"]` {
		t.Errorf("the page: %s", got)
	}
	// A handler that cancels, then submits by itself: the form did go.
	js(t, p, `document.querySelector('main').insertAdjacentHTML('beforeend', '<form id="manual" action="/act/other.html"><input name="m" value="1" aria-label="M"></form>');
		document.getElementById('manual').addEventListener('submit', (e) => { e.preventDefault(); window.handled = 'manual'; e.target.submit(); })`)
	res, err = p.Submit(ctx, "#manual")
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, res); got != `{"submitted":true,"valid":true,"prevented":true,"navigated":true,"newUrl":"`+base+`act/other.html?m=1"}` || len(res.Warnings) != 0 {
		t.Errorf("cancel then submit: %s %q", got, res.Warnings)
	}
}

func TestConsoleClearLosesNothing(t *testing.T) {
	p, _ := openFixture(t, "points.html")
	ctx := testCtx(t)
	// Messages keep arriving while the console is read and cleared: each
	// must be returned by exactly one read.
	const n = 3000
	for i := range 4000 {
		p.console.add(ConsoleMessage{Type: "console", Level: "log", Text: fmt.Sprint("old ", i), Time: 1})
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			p.console.add(ConsoleMessage{Type: "console", Level: "log", Text: fmt.Sprint("new ", i), Time: 1})
			if i%10 == 0 {
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	seen := map[string]int{}
	reads := 0
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		r, err := p.Console().Read(ctx, ConsoleOptions{Clear: true, Limit: 10000})
		if err != nil {
			t.Fatal(err)
		}
		reads++
		for _, m := range r.Messages {
			seen[m.Text]++
		}
	}
	missing, twice := 0, 0
	for i := range n {
		switch seen[fmt.Sprint("new ", i)] {
		case 0:
			missing++
		case 1:
		default:
			twice++
		}
	}
	if missing != 0 || twice != 0 || seen["old 0"] != 1 || seen["old 3999"] != 1 {
		t.Errorf("over %d reads: %d messages lost, %d returned twice, old %d/%d", reads, missing, twice, seen["old 0"], seen["old 3999"])
	}
}

func TestReadStepRoundTrips(t *testing.T) {
	p, _ := openFixture(t, "extract.html")
	ctx := testCtx(t)
	extract(t, p, ExtractOptions{Selector: "#noheads"}) // the engine is in
	calls := func(f func()) int64 {
		before := p.Browser.conn.Sent()
		f()
		return p.Browser.conn.Sent() - before
	}
	// find (which checks the selector), the engine call, the release.
	if n := calls(func() { extract(t, p, ExtractOptions{Selector: "#noheads"}) }); n != 3 {
		t.Errorf("extract took %d CDP calls, want 3", n)
	}
	// A query checks its selector in its one engine call.
	if n := calls(func() {
		if _, err := p.Query(ctx, QueryOptions{Selector: "li"}); err != nil {
			t.Fatal(err)
		}
	}); n != 1 {
		t.Errorf("query took %d CDP calls, want 1", n)
	}
	_, err := p.Query(ctx, QueryOptions{Selector: "a[["})
	var e *Error
	if !asError(err, &e) || e.Kind != KindSelector || !strings.HasPrefix(e.Message, `invalid CSS selector "a[[": `) || e.Hint == "" {
		t.Errorf("invalid query selector: %v", err)
	}
	if _, err := p.Click(ctx, Target{Text: "One", Within: "main[["}, ClickOptions{}); KindOf(err) != KindSelector || !strings.Contains(err.Error(), `invalid CSS selector "main[["`) {
		t.Errorf("invalid within selector: %v", err)
	}
	start := time.Now()
	_, err = p.Extract(ctx, ExtractOptions{Selector: "##"})
	if !asError(err, &e) || e.Kind != KindSelector || !strings.HasPrefix(e.Message, `invalid CSS selector "##": `) || time.Since(start) > time.Second {
		t.Errorf("invalid extract selector: %v after %s", err, time.Since(start))
	}
}

// TestGetDomMasksSecretInputs (issue 31, item 11): a password, API key or
// token the server filled into an input's value attribute is masked in
// getDom, of the document and of an element; other values stay.
func TestGetDomMasksSecretInputs(t *testing.T) {
	useStateDir(t, t.TempDir())
	p := loadHTML(t, `<form id=f><input type=password name=pw value="hunter2">`+
		`<input name="api_key" value='sk-live-123'><input id=session-token value=tok456>`+
		`<input name=user value="bob"><input type=PASSWORD value=""></form>`)
	for _, o := range []DOMOptions{{}, {Selector: "#f"}, {Selector: "#f", Inner: true}} {
		d, err := p.GetDOM(testCtx(t), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"hunter2", "sk-live-123", "tok456"} {
			if strings.Contains(d.HTML, secret) {
				t.Fatalf("getDom %+v shows %q: %s", o, secret, d.HTML)
			}
		}
		if !strings.Contains(d.HTML, `value="bob"`) || strings.Count(d.HTML, maskText) != 3 {
			t.Fatalf("getDom %+v: %s", o, d.HTML)
		}
	}
}
