package runtime

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// summaryNews finds the news the changes' summary quotes: `Alert: "…"`.
var summaryNews = regexp.MustCompile(`(?:^|[.:] )([A-Z][a-z]+): ("(?:[^"\\]|\\.)*")`)

// newsLines is the changes' text lines with the "+ role: text" lines that
// the summary quotes (sayOnce leaves those out of text) put back, one line
// each, so a test can ask whether the answer says a text appeared.
func newsLines(ch *Changes) string {
	if ch == nil {
		return ""
	}
	lines := slices.Clone(ch.Text)
	for _, m := range summaryNews.FindAllStringSubmatch(ch.Summary, -1) {
		text, err := strconv.Unquote(m[2])
		if err != nil || m[1] == "Transient" {
			continue
		}
		if line := "+ " + strings.ToLower(m[1]) + ": " + text; !slices.Contains(lines, line) {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// TestAnswersSayEachFactOnce: after a fill and a click on the product
// page, the answer says each fact once: the fill's new value is on the
// field's snapshot line (not again in changes.changed), the status the
// summary quotes is not again in changes.text, the summary counts the
// changes the changed list spells out, and the focused element keeps the
// spec's fields but not the ref, role and name its [focused] snapshot line
// gives. What is said once is still said, and the page's handler ran once.
func TestAnswersSayEachFactOnce(t *testing.T) {
	tab, _ := openShop(t, "product.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"fill":{"label":"Quantity","value":"2"}},{"click":{"text":"Add to cart"}}]}`)
	mustOK(t, out)
	ch, snap := out.Changes, out.ViewportSnap
	if ch == nil {
		t.Fatalf("no changes: %s", out.JSON())
	}
	qty := regexp.MustCompile(`spinbutton "Quantity" \[ref=(s\d+e\d+)\]: "2"`).FindStringSubmatch(snap)
	if qty == nil {
		t.Fatalf("the snapshot does not show the quantity 2:\n%s", snap)
	}
	for _, c := range ch.Changed {
		if c.Ref == qty[1] {
			t.Errorf("the fill's value is said again in changes.changed: %s", jsonString(ch))
		}
	}
	if len(ch.Changed) != 1 || ch.Changed[0].Field != "name" || ch.Changed[0].To != "Cart (2)" {
		t.Errorf("the cart link's new name is not in changes.changed: %s", jsonString(ch))
	}
	if !strings.Contains(ch.Summary, `Status: "Added 2 × Brass Clip Lamp".`) || strings.Contains(strings.Join(ch.Text, "\n"), "Added 2") {
		t.Errorf("the status is not said once (in the summary): %s", jsonString(ch))
	}
	if !strings.Contains(ch.Summary, "2 changed (") || !strings.Contains(ch.Summary, qty[1]+" value") {
		t.Errorf("the summary no longer names the value change it left out of the list: %q", ch.Summary)
	}
	active, _ := out.Context.ActiveElement.(map[string]any)
	if active["tag"] != "button" || active["selector"] == nil || active["box"] == nil || active["editable"] != false {
		t.Errorf("activeElement lost a spec field: %s", jsonString(out.Context.ActiveElement))
	}
	if active["ref"] != nil || active["name"] != nil || active["role"] != nil {
		t.Errorf("activeElement repeats its [focused] snapshot line: %s", jsonString(out.Context.ActiveElement))
	}
	// The banner shows only its changed link; the header says the rest
	// was left out.
	if first, _, _ := strings.Cut(snap, "\n"); !strings.HasPrefix(first, "# left out: rest of banner") || !strings.Contains(snap, `link "Cart (2)"`) {
		t.Errorf("the header does not say what of the banner it left out:\n%s", snap)
	}
	if !strings.Contains(snap, `button "Add to cart" [focused] [ref=`) {
		t.Errorf("the snapshot does not mark the focused button:\n%s", snap)
	}
	if got := pageJSON(t, tab, "window.adds"); got != "1" {
		t.Errorf("the add handler ran %s times", got)
	}

	// A click whose changes the list spells out in full: the summary counts.
	help := runJSON(t, `{"tab":"`+tab+`","steps":[{"goto":"`+pagesURL(t)+`shop/help.html"}]}`)
	mustOK(t, help)
	more := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"More questions"}}]}`)
	mustOK(t, more)
	if ch := more.Changes; ch == nil || !strings.HasPrefix(ch.Summary, "Clicked. 1 added. 1 changed.") || len(ch.Added) != 1 || !strings.Contains(ch.Added[0], `link "Warranty terms" [ref=`) || len(ch.Changed) != 1 || ch.Changed[0].Field != "expanded" {
		t.Errorf("changes of opening a section: %s", jsonString(more.Changes))
	}
	// An element whose ref the snapshot does not mark [focused] keeps
	// its ref, role and name.
	focus := runJSON(t, `{"tab":"`+tab+`","capture":{"viewportSnapshot":false},"steps":[{"focus":{"text":"More questions"}}]}`)
	mustOK(t, focus)
	if a, _ := focus.Context.ActiveElement.(map[string]any); a["ref"] == nil || a["role"] != "button" || a["name"] != "More questions" {
		t.Errorf("without a snapshot, activeElement lost its ref, role or name: %s", jsonString(focus.Context))
	}
}

// TestGotoSaysNavigatedOnce: a goto to the URL the tab is on answers
// navigated, without a changes summary that says again the page reloaded;
// a click that reloads the page still says so (TestClickThatReloads…).
func TestGotoSaysNavigatedOnce(t *testing.T) {
	tab, base := openShop(t, "checkout.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`checkout.html"}]}`)
	mustOK(t, out)
	if !out.Navigated || out.Changes != nil {
		t.Errorf("goto to the same URL: navigated %t, changes %s", out.Navigated, jsonString(out.Changes))
	}
	if !strings.Contains(out.ViewportSnap, `button "Continue to shipping"`) {
		t.Errorf("the page is not in the answer:\n%s", out.ViewportSnap)
	}
}

// TestHoverAnswerShowsWhatItOpened: hovering "Products" opens a :hover
// submenu in the banner (no DOM change, so no change log names it); the
// answer's view shows the submenu's links with refs, and its header says
// the rest of the banner was left out. Clicking "Smart bulbs" by that ref
// filters the list once. A click (not a hover) on a banner link adds no
// banner to the view.
func TestHoverAnswerShowsWhatItOpened(t *testing.T) {
	tab, base := openShop(t, "index.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"hover":{"text":"Products"}}]}`)
	mustOK(t, out)
	m := regexp.MustCompile(`link "Smart bulbs" \[ref=(s\d+e\d+)\]`).FindStringSubmatch(out.ViewportSnap)
	if m == nil || !strings.Contains(out.ViewportSnap, `link "Desk lamps" [ref=`) {
		t.Fatalf("the hover's answer does not show the submenu it opened:\n%s", out.ViewportSnap)
	}
	if first, _, _ := strings.Cut(out.ViewportSnap, "\n"); !strings.Contains(first, "rest of banner") {
		t.Errorf("the header does not say the rest of the banner was left out: %q", first)
	}
	if !strings.Contains(out.ViewportSnap, `heading "Products" [level=1]`) {
		t.Errorf("main is missing:\n%s", out.ViewportSnap)
	}
	click := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"`+m[1]+`"}]}`)
	mustOK(t, click)
	if got := pageJSON(t, tab, "window.filters"); got != "1" {
		t.Errorf("the filter ran %s times", got)
	}
	if strings.Contains(click.ViewportSnap, `link "Desk lamps"`) {
		t.Errorf("a click's answer shows the banner's submenu:\n%s", click.ViewportSnap)
	}
	_ = base
}
