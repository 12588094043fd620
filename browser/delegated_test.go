package browser

import (
	"strings"
	"testing"
)

// TestRefForDelegatedAutocompleteItem: the suggestions of an autocomplete
// built as jQuery UI's (role-less li items, every handler on the ul) get
// refs in the snapshot, and clicking one by its ref picks it: the input
// holds the country and the page's select handler ran once.
func TestRefForDelegatedAutocompleteItem(t *testing.T) {
	p, _ := openFixture(t, "autocomplete.html")
	ctx := testCtx(t)
	if _, err := p.Type(ctx, Target{Label: "Country"}, "Ca", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	snap, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"Cambodia", "Cameroon", "Canada", "Cape Verde"} {
		if l := lineWith(snap.YAML, c); !strings.HasPrefix(l, "- listitem [ref=") || !strings.HasSuffix(l, "]: "+c) {
			t.Fatalf("no ref line of its own for %s:\n%s", c, snap.YAML)
		}
	}
	ref := refOf(t, snap.YAML, "Cameroon")
	if _, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[document.getElementById('country').value, window.selects, !!document.querySelector('.ui-menu')]"); got != `["Cameroon",1,false]` {
		t.Fatalf("value, selects, menu open = %s", got)
	}
}

// TestDelegatedItemRefOutlivesRerender: the autocomplete rebuilds its
// menu on every keystroke, so a suggestion's ref taken before the next
// letter points at a removed li, and the item is now first where it was
// third; the ref re-resolves by role and text to the new li.
func TestDelegatedItemRefOutlivesRerender(t *testing.T) {
	p, _ := openFixture(t, "autocomplete.html")
	ctx := testCtx(t)
	if _, err := p.Type(ctx, Target{Label: "Country"}, "Ca", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	snap, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, snap.YAML, "Canada")
	if _, err := p.Type(ctx, Target{Label: "Country"}, "n", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[...document.querySelectorAll('.ui-menu li')].map((li) => li.textContent).join()"); got != `"Canada"` {
		t.Fatalf("menu after Can = %s", got)
	}
	if _, err := p.Click(ctx, Target{Ref: ref}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[document.getElementById('country').value, window.selects]"); got != `["Canada",1]` {
		t.Fatalf("value, selects = %s", got)
	}
}

// TestDraggableCardsGetRefs: the cards of an HTML5 kanban board get a ref
// each, on their own line, and a card dragged by its ref lands in the
// column the page moved it to.
func TestDraggableCardsGetRefs(t *testing.T) {
	p, _ := openFixture(t, "kanban.html")
	ctx := testCtx(t)
	snap, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"Update privacy policy", "Write release notes", "Fix checkout rounding bug"} {
		if l := lineWith(snap.YAML, c); !strings.HasPrefix(l, "- generic [draggable] [ref=") || !strings.HasSuffix(l, "]: "+c) {
			t.Fatalf("no ref line of its own for %s:\n%s", c, snap.YAML)
		}
	}
	card := refOf(t, snap.YAML, "Fix checkout rounding bug")
	if _, err := p.Drag(ctx, DragEnd{Target: Target{Ref: card}}, DragEnd{Target: Target{Selector: "#done"}}, DragOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[JSON.stringify(window.drops), document.querySelector('#done .card') && document.querySelector('#done .card').id]"); got != `["[\"c3>done\"]","c3"]` {
		t.Fatalf("drops, card in done = %s", got)
	}
}

// lineWith returns the first snapshot line containing needle, trimmed.
func lineWith(yaml, needle string) string {
	for _, line := range strings.Split(yaml, "\n") {
		if strings.Contains(line, needle) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}
