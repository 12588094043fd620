package runtime

import (
	"encoding/json"
	"strings"
	"testing"
)

type searchMatch struct {
	Role, Name, Ref, Text, Within, Row string
	Controls                           []string
}

func searchMatches(t *testing.T, out *Output, i int) []searchMatch {
	t.Helper()
	var o struct {
		MatchCount int           `json:"matchCount"`
		Matches    []searchMatch `json:"matches"`
	}
	data, _ := json.Marshal(out.Steps[i].Output)
	if err := json.Unmarshal(data, &o); err != nil || o.MatchCount != len(o.Matches) {
		t.Fatalf("step %d output: %s", i, data)
	}
	return o.Matches
}

// TestSnapshotSearchFindsWhatSnapshotShows: text the snapshot shows on a
// text line (cards whose texts it joins) is found, as the element that
// holds it, with a ref that acts on that element; a heading or paragraph
// of a feed item comes with a ref and the item's controls, and the Like
// ref listed acts on that item's button.
func TestSnapshotSearchFindsWhatSnapshotShows(t *testing.T) {
	tab, _ := openShop(t, "board.html")
	out := runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[{"snapshot":true},{"snapshotSearch":{"text":"Fix checkout rounding bug"}},{"snapshotSearch":{"text":"New brass range"}},{"snapshotSearch":{"text":"six new clip"}}]}`)
	mustOK(t, out)
	if yaml, _ := stepOutput(t, out, 0)["yaml"].(string); !strings.Contains(yaml, "Fix checkout rounding bug") {
		t.Fatalf("the snapshot does not show the card:\n%s", yaml)
	}
	card := searchMatches(t, out, 1)
	if len(card) != 1 || card[0].Ref == "" || card[0].Text != "Fix checkout rounding bug" {
		t.Fatalf("card match: %+v", card)
	}
	for _, i := range []int{2, 3} {
		m := searchMatches(t, out, i)
		if len(m) != 1 || m[0].Ref == "" || m[0].Within != "article" || len(m[0].Controls) != 2 || !strings.HasPrefix(m[0].Controls[0], `button "Like" [ref=`) {
			t.Fatalf("step %d: feed item match: %+v", i, m)
		}
	}
	el := runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[{"pageFunction":{"fn":"(el) => el.className + ': ' + el.textContent","refs":["`+card[0].Ref+`"]}}]}`)
	mustOK(t, el)
	if got := jsonString(el.Steps[0].Output); got != `"card: Fix checkout rounding bug"` {
		t.Errorf("the card's ref is %s", got)
	}
	like := strings.TrimSuffix(strings.SplitN(searchMatches(t, out, 2)[0].Controls[0], "[ref=", 2)[1], "]")
	mustOK(t, runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"`+like+`"}]}`))
	if got := pageValue(t, tab, "() => [window.likes, [...document.querySelectorAll('article button')].map((b) => b.textContent)]"); got != `[1,["Like","Liked"]]` {
		t.Errorf("page state after clicking the Like ref search gave: %s", got)
	}
}

// TestSnapshotSearchReadsTheMatchedRow: a cell found in a 200-row table
// (far below the viewport) comes with its row's cells, so the agent reads
// the order's total from the search, and the row's Open link by ref acts
// on that row.
func TestSnapshotSearchReadsTheMatchedRow(t *testing.T) {
	tab, _ := openShop(t, "orders.html")
	out := runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[{"snapshotSearch":{"text":"Order 150"}}]}`)
	mustOK(t, out)
	m := searchMatches(t, out, 0)
	if len(m) != 1 || m[0].Row != "Order 150 | €450.00 | Open" || len(m[0].Controls) != 1 {
		t.Fatalf("matches: %+v", m)
	}
	ref := strings.TrimSuffix(strings.SplitN(m[0].Controls[0], "[ref=", 2)[1], "]")
	click := runJSON(t, `{"tab":"`+tab+`","capture":"none","steps":[{"click":"`+ref+`"},{"pageFunction":"location.hash"}]}`)
	mustOK(t, click)
	if got := jsonString(click.Steps[1].Output); got != `"#o150"` {
		t.Errorf("the row's Open link led to %s", got)
	}
}
