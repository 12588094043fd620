package browser

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// The WPT accessible-name suite (testdata/wpt, copied from
// web-platform-tests with its licence; see its README) run through our
// engine: every element a test names gets the name the snapshot shows,
// compared with what the test expects and with what Chromium's own
// accessibility tree computes for it (trimmed, as the tests' computed
// label is).
//
// The suite leaves its helpers to each browser's harness; wptHarness
// stands in for them: the name/ tests mark their elements with
// data-expectedlabel, and the manual/ tests declare theirs to ATTAcomm,
// whose stand-in writes the declaration onto the document for the test to
// read. WPT_ACCNAME_DUMP=1 logs every element.

// wptKnownWrong are the suite's cases our names get wrong, each also wrong
// in Chromium's own tree (which our names follow where the two differ).
var wptKnownWrong = map[string]bool{
	// The label's title between its ::before and ::after content.
	"accname/manual/name_test_case_659-manual.html: step 1 #test": true,
	"accname/manual/name_test_case_660-manual.html: step 1 #test": true,
	// A label's ::after content before its text.
	"accname/manual/name_test_case_761-manual.html: step 1 #test": true,
	// Chromium does not name kbd from its title.
	"accname/name/comp_tooltip.html: kbd with tooltip label": true,
	// aria-labelledby chains through an image named by aria-labelledby.
	"accname/name/comp_name_from_content.html: heading with link referencing image using aria-labelledby, that in turn references text element via aria-labelledby":               true,
	"accname/name/comp_name_from_content.html: heading with link referencing image using aria-labelledby, that in turn references itself and another element via aria-labelledby": true,
}

// wptHarness are the suite's helper scripts, as stand-ins.
var wptHarness = fstest.MapFS{
	"resources/testharness.js":        {Data: []byte("window.setup = () => {}; window.test = () => {}; window.promise_test = () => {}; window.done = () => {};")},
	"resources/testharnessreport.js":  {Data: nil},
	"resources/testdriver.js":         {Data: nil},
	"resources/testdriver-vendor.js":  {Data: nil},
	"resources/testdriver-actions.js": {Data: nil},
	"wai-aria/scripts/aria-utils.js":  {Data: []byte("window.AriaUtils = {verifyLabelsBySelector() {}, verifyRolesBySelector() {}};")},
	"wai-aria/scripts/ATTAcomm.js":    {Data: []byte("window.ATTAcomm = function (spec) { document.documentElement.setAttribute('data-atta', JSON.stringify(spec)); };")},
}

// overlayFS serves the harness stand-ins over the suite's files.
type overlayFS struct{ top, under fs.FS }

func (o overlayFS) Open(name string) (fs.File, error) {
	if f, err := o.top.Open(name); err == nil {
		return f, nil
	}
	return o.under.Open(name)
}

// wptPages are the suite's name tests: the name/ pages and the manual
// name_* pages (the description_* pages test descriptions, which the
// snapshot does not show).
func wptPages(t *testing.T) []string {
	var pages []string
	err := filepath.WalkDir("testdata/wpt/accname", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel("testdata/wpt", p)
		if strings.HasPrefix(rel, "accname/name/") || strings.HasPrefix(path.Base(rel), "name_") {
			pages = append(pages, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages)
	return pages
}

// wptCase is one element a test names: what the test expects, what our
// engine computes and what Chromium computes.
type wptCase struct {
	Page, Test, Want, Ours, Chromium string
	index                            int
}

// wptMark marks each element a page's tests name with data-wpt-i and
// returns, per index, the test's name, the expected name and the engine's.
const wptMark = `(() => {
	const out = [];
	const mark = (el, test, want) => {
		el.setAttribute('data-wpt-i', String(out.length));
		const d = ` + "DESCRIBE" + `(el);
		out.push({Test: test, Want: want, Ours: d.name});
	};
	const visit = (root) => {
		for (const el of root.querySelectorAll('[data-expectedlabel]')) {
			mark(el, el.getAttribute('data-testname') || el.id, el.getAttribute('data-expectedlabel'));
		}
		for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
	};
	visit(document);
	const atta = document.documentElement.getAttribute('data-atta');
	if (atta) {
		for (const step of JSON.parse(atta).steps || []) {
			const uia = ((step.test || {}).UIA || []).find((a) => a[0] === 'property' && a[1] === 'Name');
			const el = step.element && document.getElementById(step.element);
			if (uia && el) mark(el, (step.title || '') + ' #' + step.element, uia[3]);
		}
	}
	return out;
})()`

func TestWPTAccessibleNames(t *testing.T) {
	c := browsertest.Require(t)
	base := browsertest.Serve(t, overlayFS{wptHarness, os.DirFS("testdata/wpt")})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	b, err := Connect(ctx, c.Endpoint, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	id, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.CloseTab(context.WithoutCancel(ctx), id)
	p, err := b.Attach(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []func() error{
		func() error { _, err := cdp.Call(ctx, p.Session(), dom.Enable, dom.EnableParams{}); return err },
		func() error { _, err := cdp.Call(ctx, p.Session(), accessibility.Enable, cdp.Empty{}); return err },
	} {
		if err := call(); err != nil {
			t.Fatal(err)
		}
	}
	var all []wptCase
	for _, page := range wptPages(t) {
		all = append(all, wptPageCases(ctx, t, p, base, page)...)
	}
	ours, chromium := 0, 0
	for _, k := range all {
		if k.Ours == k.Want {
			ours++
		}
		if k.Chromium == k.Want {
			chromium++
		}
		key := k.Page + ": " + k.Test
		switch known := wptKnownWrong[key]; {
		case k.Ours != k.Want && !known:
			t.Errorf("%s: ours %q, want %q (Chromium %q)", key, k.Ours, k.Want, k.Chromium)
		case k.Ours == k.Want && known:
			t.Errorf("%s is right now: take it off wptKnownWrong", key)
		case os.Getenv("WPT_ACCNAME_DUMP") != "" && (k.Ours != k.Want || k.Chromium != k.Want):
			t.Logf("%s: ours %q, Chromium %q, want %q", key, k.Ours, k.Chromium, k.Want)
		}
	}
	t.Logf("WPT accname: %d elements; ours right %d, Chromium right %d", len(all), ours, chromium)
	if len(all) < 300 {
		t.Errorf("only %d elements were found in the suite: the harness lost some", len(all))
	}
	if ours < chromium {
		t.Errorf("our names are right for %d elements, Chromium's for %d: we must be at least at Chromium's level", ours, chromium)
	}
}

// wptPageCases opens one page of the suite and returns its cases.
func wptPageCases(ctx context.Context, t *testing.T, p *Page, base, page string) []wptCase {
	t.Helper()
	if _, err := p.Navigate(ctx, base+page, WaitLoad); err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	p.engineCall(ctx, nil, epDescribe, nil) // installs the engine
	raw, err := p.engineEval(ctx, strings.Replace(wptMark, "DESCRIBE", epDescribe.js(), 1))
	var cases []wptCase
	if err == nil {
		err = json.Unmarshal(raw, &cases)
	}
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	if len(cases) == 0 {
		t.Errorf("%s names no element", page)
	}
	for i := range cases {
		cases[i].Page, cases[i].index = page, i
	}
	doc, err := cdp.Call(ctx, p.Session(), dom.GetDocument, dom.GetDocumentParams{Depth: ptr(int64(-1)), Pierce: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	backends := map[string]cdp.BackendNodeID{}
	collectWPTMarks(doc.Root, backends)
	for i := range cases {
		be, ok := backends[jsonIndex(i)]
		if !ok {
			t.Errorf("%s: %s: not found in the DOM", page, cases[i].Test)
			continue
		}
		res, err := cdp.Call(ctx, p.Session(), accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{BackendNodeID: be, FetchRelatives: ptr(false)})
		if err != nil || len(res.Nodes) == 0 {
			continue
		}
		ax := res.Nodes[0]
		for _, n := range res.Nodes {
			if n.BackendDOMNodeID == be {
				ax = n
			}
		}
		// The name with ASCII white space trimmed from its ends, as the
		// tests' computed label is.
		cases[i].Chromium = strings.Trim(axString(ax.Name), " \t\n\f\r")
	}
	return cases
}

func jsonIndex(i int) string {
	data, _ := json.Marshal(i)
	return string(data)
}

// collectWPTMarks maps each data-wpt-i value to its backend node.
func collectWPTMarks(n *cdp.Node, out map[string]cdp.BackendNodeID) {
	if n == nil {
		return
	}
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		if n.Attributes[i] == "data-wpt-i" {
			out[n.Attributes[i+1]] = n.BackendNodeID
		}
	}
	for _, sr := range n.ShadowRoots {
		collectWPTMarks(sr, out)
	}
	for _, c := range n.Children {
		collectWPTMarks(c, out)
	}
	collectWPTMarks(n.ContentDocument, out)
}
