package runtime

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// actPagesURL serves the browser package's action fixtures (a virtualised
// list, a jQuery UI style autocomplete, a kanban board), shared rather
// than copied.
func actPagesURL(t *testing.T) string {
	return browsertest.Serve(t, os.DirFS("../browser/testdata/act"))
}

// TestJSONScrollUntilVisibleVirtualList: an agent's
// {"click":{"text":"Row 800","scrollUntilVisible":true}} on a virtualised
// list (rows render only as the list's own container scrolls) clicks that
// row, once.
func TestJSONScrollUntilVisibleVirtualList(t *testing.T) {
	base := actPagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`virtual.html"},
		{"click":{"text":"Row 800","exact":true,"scrollUntilVisible":true}},
		{"pageFunction":"JSON.stringify(window.clicks)"}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	if s := jsonString(out.Steps[2].Output); s != `"{\"800\":1}"` {
		t.Fatalf("clicks = %s", s)
	}
}

// snapshotYAML is the tree a snapshot step answered.
func snapshotYAML(t *testing.T, s *StepResult) string {
	t.Helper()
	var m map[string]any
	json.Unmarshal([]byte(jsonString(s.Output)), &m)
	yaml, ok := m["yaml"].(string)
	if !ok {
		t.Fatalf("snapshot step output = %s", jsonString(s.Output))
	}
	return yaml
}

// snapshotRef returns the ref of the first snapshot line that has prefix
// and contains needle.
func snapshotRef(t *testing.T, yaml, prefix, needle string) string {
	t.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, prefix) && strings.Contains(line, needle) {
			if i := strings.Index(line, "[ref="); i >= 0 {
				return line[i+5 : i+5+strings.Index(line[i+5:], "]")]
			}
		}
	}
	t.Fatalf("no %q line with %q and a ref in:\n%s", prefix, needle, yaml)
	return ""
}

// TestJSONAutocompleteItemByRef: an agent types into a jQuery UI style
// autocomplete, reads the suggestions' refs from a snapshot and clicks
// one: the input holds it and the page's select handler ran once.
func TestJSONAutocompleteItemByRef(t *testing.T) {
	base := actPagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`autocomplete.html"},{"click":"#country"},{"type":"Ca"},{"snapshot":true}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	yaml := snapshotYAML(t, out.Steps[3])
	ref := snapshotRef(t, yaml, "- listitem [ref=", "Cameroon")
	res := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+ref+`"},{"pageFunction":"[country.value, window.selects].join()"}]}`)
	mustOK(t, res)
	if s := jsonString(res.Steps[1].Output); s != `"Cameroon,1"` {
		t.Fatalf("value, selects = %s", s)
	}
}

// TestJSONDragCardByRef: a kanban card has a ref of its own, and
// dragging it by that ref moves it to the other column in the page.
func TestJSONDragCardByRef(t *testing.T) {
	base := actPagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`kanban.html"},{"snapshot":true}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	yaml := snapshotYAML(t, out.Steps[1])
	card := snapshotRef(t, yaml, "- generic [draggable] [ref=", "Fix checkout rounding bug")
	res := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"drag":{"source":"`+card+`","target":"#done"}},{"pageFunction":"JSON.stringify(window.drops)"}]}`)
	mustOK(t, res)
	if s := res.Steps[1].Output; s != `["c3>done"]` {
		t.Fatalf("drops = %v", s)
	}
}
