package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// The accname fixtures (testdata/accname/*.html) mark elements with
// data-expect-role and data-expect-name: the ARIA role and the accessible
// name Chromium computes for them. TestAccnameFixturesAgreeWithChromium
// proves those expectations against Chromium's accessibility tree, so the
// in-page role/name engine can be tested against the same attributes.
//
// Names are compared exactly, as Chromium's tree has them: white space at
// the ends, NBSP and other non-ASCII spaces are part of the expectation.
//
// ACCNAME_DUMP=1 logs Chromium's role and name for every marked element;
// ACCNAME_DUMP=sources also logs the name's sources as Chromium reports them.

const (
	attrExpectRole = "data-expect-role"
	attrExpectName = "data-expect-name"
	// attrChromeRole records Chromium's raw role where it is not an ARIA role.
	attrChromeRole = "data-chrome-role"
)

// chromiumRoleSynonyms maps role names Chromium reports in
// Accessibility.getPartialAXTree (role.value) to the ARIA synonym the
// fixtures use.
var chromiumRoleSynonyms = map[string]string{
	// ARIA 1.3's synonym for img.
	"image": "img",
	// role=presentation is reported as its synonym none.
	"presentation": "none",
}

// chromiumInternalRoles maps the Chromium internal roles (reported where
// ARIA has no role for an element) to the ARIA role closest to how Chromium
// exposes them on platform APIs. Fixture elements with one of these carry
// data-chrome-role with the raw value, which is checked too.
//
// Everything else Chromium reports is already an ARIA role name (including
// ARIA 1.3's sectionheader, sectionfooter and caption) and is compared as
// is. Note that for an ignored node (role=none/presentation, img alt="",
// and also pruned generic containers and aria-hidden subtrees) Chromium
// always reports role "none": only the first group is marked in the
// fixtures.
var chromiumInternalRoles = map[string]string{
	// <label>, <legend>, <figcaption>, <abbr>: no ARIA role (HTML-AAM: no
	// corresponding role).
	"LabelText":  "generic",
	"Legend":     "generic",
	"Figcaption": "generic",
	"Abbr":       "generic",
	// <dl>: exposed as a list on platform APIs; dt/dd are term/definition.
	"DescriptionList": "list",
	// <summary>: a push button on platform APIs.
	"DisclosureTriangle": "button",
	// <input type=color>: a button opening a picker.
	"ColorWell": "button",
	// <input type=date|time|datetime-local|month|week>: editable fields.
	"Date":      "textbox",
	"DateTime":  "textbox",
	"InputTime": "textbox",
	// <math>.
	"MathMLMath": "math",
}

// ariaRole normalises a Chromium role name to the fixtures' ARIA name.
func ariaRole(chromium string) string {
	if r, ok := chromiumRoleSynonyms[chromium]; ok {
		return r
	}
	if r, ok := chromiumInternalRoles[chromium]; ok {
		return r
	}
	return chromium
}

// markedNode is a DOM element carrying data-expect-* attributes.
type markedNode struct {
	backend  cdp.BackendNodeID
	desc     string // tag#id, prefixed by "host >>> " in shadow trees
	role     string
	hasRole  bool
	name     string
	hasName  bool
	chrome   string // data-chrome-role, "" when absent
	inShadow bool
}

// collectMarked walks a DOM.getDocument tree (pierced: shadow roots and
// frames included) and returns the marked elements in document order. host
// describes the shadow host when n is inside a shadow tree.
func collectMarked(n *cdp.Node, host string, out *[]markedNode) {
	if n == nil {
		return
	}
	if n.NodeType == 1 {
		m := markedNode{backend: n.BackendNodeID, inShadow: host != ""}
		id := ""
		for i := 0; i+1 < len(n.Attributes); i += 2 {
			switch k, v := n.Attributes[i], n.Attributes[i+1]; k {
			case attrExpectRole:
				m.role, m.hasRole = v, true
			case attrExpectName:
				m.name, m.hasName = v, true
			case attrChromeRole:
				m.chrome = v
			case "id":
				id = v
			}
		}
		desc := n.LocalName
		if id != "" {
			desc += "#" + id
		}
		if m.hasRole || m.hasName {
			m.desc = desc
			if host != "" {
				m.desc = host + " >>> " + desc
			}
			*out = append(*out, m)
		}
		for _, sr := range n.ShadowRoots {
			h := desc
			if host != "" {
				h = host + " >>> " + desc
			}
			collectMarked(sr, h, out)
		}
	}
	// Template content is inert; it is not walked.
	for _, c := range n.Children {
		collectMarked(c, host, out)
	}
	collectMarked(n.ContentDocument, host, out)
}

// axString decodes an AX value to a string ("" when absent).
func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var x any
	if err := json.Unmarshal(v.Value, &x); err != nil {
		return string(v.Value)
	}
	if s, ok := x.(string); ok {
		return s
	}
	return fmt.Sprint(x)
}

func TestAccnameFixturesAgreeWithChromium(t *testing.T) {
	c := browsertest.Require(t)
	files, err := filepath.Glob(filepath.Join("testdata", "accname", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/accname")
	}
	sort.Strings(files)
	base := browsertest.Serve(t, os.DirFS(filepath.Join("testdata", "accname")))

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b, err := Connect(ctx, c.Endpoint, ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	total, pages := 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(strings.TrimSuffix(name, ".html"), func(t *testing.T) {
			pages++
			total += checkAccnameFixture(ctx, t, b, base+name)
		})
	}
	t.Logf("%d marked elements in %d fixture pages", total, pages)
}

// checkAccnameFixture opens one fixture page and compares every marked
// element with Chromium's computed role and name. It returns the number of
// marked elements.
func checkAccnameFixture(ctx context.Context, t *testing.T, b *Browser, u string) int {
	id, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.CloseTab(context.WithoutCancel(ctx), id)
	p, err := b.Attach(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Navigate(ctx, u, WaitLoad); err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.Call(ctx, p.Session(), dom.Enable, dom.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.Call(ctx, p.Session(), accessibility.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	doc, err := cdp.Call(ctx, p.Session(), dom.GetDocument, dom.GetDocumentParams{Depth: ptr(int64(-1)), Pierce: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	var marked []markedNode
	collectMarked(doc.Root, "", &marked)
	if len(marked) == 0 {
		t.Fatalf("%s marks no elements", u)
	}
	shadow := 0
	for _, m := range marked {
		if m.inShadow {
			shadow++
		}
		if !m.hasRole || !m.hasName {
			t.Errorf("%s: carries only one of %s and %s", m.desc, attrExpectRole, attrExpectName)
		}
		if m.hasRole && ariaRole(m.role) != m.role {
			t.Errorf("%s: %s=%q is a Chromium name: use the ARIA role %q", m.desc, attrExpectRole, m.role, ariaRole(m.role))
		}
		res, err := cdp.Call(ctx, p.Session(), accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
			BackendNodeID:  m.backend,
			FetchRelatives: ptr(false),
		})
		if err != nil {
			t.Errorf("%s: getPartialAXTree: %v", m.desc, err)
			continue
		}
		var ax *accessibility.Node
		for _, n := range res.Nodes {
			if n.BackendDOMNodeID == m.backend {
				ax = n
				break
			}
		}
		if ax == nil && len(res.Nodes) > 0 {
			ax = res.Nodes[0]
		}
		if ax == nil {
			t.Errorf("%s: no accessibility node", m.desc)
			continue
		}
		rawRole, gotName := axString(ax.Role), axString(ax.Name)
		gotRole := ariaRole(rawRole)
		if dump := os.Getenv("ACCNAME_DUMP"); dump != "" {
			t.Logf("%-40s role=%-16q name=%q ignored=%v", m.desc, rawRole, gotName, ax.Ignored)
			if dump == "sources" && ax.Name != nil {
				j, _ := json.Marshal(ax.Name.Sources)
				t.Logf("    sources: %s", j)
			}
		}
		if m.hasRole && gotRole != m.role {
			t.Errorf("%s: role: fixture says %q, Chromium says %q (raw %q, ignored %v)", m.desc, m.role, gotRole, rawRole, ax.Ignored)
		}
		if _, internal := chromiumInternalRoles[rawRole]; internal && m.chrome == "" {
			t.Errorf("%s: Chromium's internal role %q: mark the element %s=%q", m.desc, rawRole, attrChromeRole, rawRole)
		}
		if m.chrome != "" && rawRole != m.chrome {
			t.Errorf("%s: raw role: fixture says %q, Chromium says %q", m.desc, m.chrome, rawRole)
		}
		if m.hasName && gotName != m.name {
			t.Errorf("%s: name: fixture says %q, Chromium says %q", m.desc, m.name, gotName)
		}
	}
	t.Logf("%d marked elements (%d in shadow roots)", len(marked), shadow)
	return len(marked)
}
