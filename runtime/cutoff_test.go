package runtime

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

var cutNote = regexp.MustCompile(`(?m)^# (\w+)(?: "[^"]*")?: (\d+) of (\d+) (rows|items) shown, (.*) — scroll, or (\{"snapshot":"[^\n]*"\}) lists all$`)

// TestViewportSaysWhatListsContinue: a list and a table the viewport
// shows part of each get a note with how many items are shown, how many
// are above and below, and the snapshot step that lists them all (which
// does); a page whose lists fit gets none.
func TestViewportSaysWhatListsContinue(t *testing.T) {
	tab, base := openShop(t, "orders.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`orders.html"}]}`)
	mustOK(t, out)
	m := cutNote.FindStringSubmatch(out.ViewportSnap)
	if m == nil || m[1] != "table" || m[3] != "200" || m[4] != "rows" || !strings.HasSuffix(m[5], " below") {
		t.Fatalf("no note for the table:\n%s", out.ViewportSnap)
	}
	shown, below := atoi(m[2]), atoi(strings.Fields(m[5])[0])
	if shown < 5 || shown+below != 200 || strings.Contains(out.ViewportSnap, "Order 200") {
		t.Errorf("note %q does not add up to what the snapshot shows:\n%s", m[0], out.ViewportSnap)
	}
	var step map[string]any
	if err := json.Unmarshal([]byte(m[6]), &step); err != nil {
		t.Fatal(err)
	}
	all := runJSON(t, jsonString(map[string]any{"tab": tab, "steps": []any{step}}))
	mustOK(t, all)
	snap := stepOutput(t, all, 0)
	yaml, _ := snap["yaml"].(string)
	if file, _ := snap["file"].(string); file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		yaml = string(data)
	}
	if !strings.Contains(yaml, "row: Order 1 |") || !strings.Contains(yaml, "row: Order 200 |") || strings.Contains(yaml, "banner") {
		t.Errorf("the suggested step does not list the table's rows: %s", all.JSON())
	}
	// Scrolled into the middle: rows above and below.
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":{"deltaY":2000}}]}`)
	mustOK(t, out)
	if m := cutNote.FindStringSubmatch(out.ViewportSnap); m == nil || !strings.Contains(m[5], " above, ") || !strings.HasSuffix(m[5], " below") {
		t.Errorf("no above-and-below note in the middle of the table:\n%s", out.ViewportSnap)
	}
	// The results list of a product page.
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`index.html"}]}`)
	mustOK(t, out)
	if m := cutNote.FindStringSubmatch(out.ViewportSnap); m == nil || m[1] != "list" || m[3] != "12" || !strings.Contains(m[0], `list "Results"`) {
		t.Errorf("no note for the results list:\n%s", out.ViewportSnap)
	}
	// Nothing continues on the checkout page.
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`checkout.html"}]}`)
	mustOK(t, out)
	if strings.Contains(out.ViewportSnap, " shown, ") {
		t.Errorf("a note on a page whose lists fit:\n%s", out.ViewportSnap)
	}
}
