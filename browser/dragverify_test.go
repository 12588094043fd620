package browser

import (
	"strconv"
	"strings"
	"testing"
)

// boardState is the kanban fixture's own state: the model's columns, the
// counts shown and the drops the page handled.
const boardState = `JSON.stringify([window.model, [...document.querySelectorAll('.count')].map((c) => +c.textContent), window.drops])`

// TestDragCardOntoColumnLands drags a card onto a column of a kanban board
// that appends dropped cards to the column: the pointer ends over another
// card (the column's centre) or the column's heading, not where the card
// goes. The card moved into the target's column and the drop was
// accepted, so the drag landed: no "retry with more steps" advice (an
// agent that followed it would drag twice). The same holds for a board
// that draws itself again after each drop (the card is a new element).
func TestDragCardOntoColumnLands(t *testing.T) {
	cases := []struct {
		page, card string
		target     Target
		want       string
	}{
		{"kanbanboard.html", "Write spec", Target{Selector: "#doing"},
			`"[{\"todo\":[\"Design review\",\"Pick a name\"],\"doing\":[\"Build prototype\",\"Set up CI\",\"Fix login\",\"Tune cache\",\"Write spec\"],\"done\":[\"Kick-off\"]},[2,5,1],1]"`},
		{"kanbanboard.html", "Set up CI", Target{Selector: "#done h2"},
			`"[{\"todo\":[\"Write spec\",\"Design review\",\"Pick a name\"],\"doing\":[\"Build prototype\",\"Fix login\",\"Tune cache\"],\"done\":[\"Kick-off\",\"Set up CI\"]},[3,3,2],1]"`},
		{"kanbanboard.html?render=1", "Write spec", Target{Selector: "#doing"},
			`"[{\"todo\":[\"Design review\",\"Pick a name\"],\"doing\":[\"Build prototype\",\"Set up CI\",\"Fix login\",\"Tune cache\",\"Write spec\"],\"done\":[\"Kick-off\"]},[2,5,1],1]"`},
	}
	for _, c := range cases {
		t.Run(c.page+" "+c.card+" onto "+c.target.String(), func(t *testing.T) {
			p, _ := openFixture(t, c.page)
			res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: c.card}}, DragEnd{Target: c.target}, DragOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, boardState); got != c.want {
				t.Fatalf("board = %s\nwant    %s\n(log %s)", got, c.want, js(t, p, "window.log"))
			}
			if res.Landed == nil || !*res.Landed || !res.DropAccepted || len(res.Warnings) != 0 {
				t.Fatalf("landed %v, accepted %v, warnings %q", deref(res.Landed), res.DropAccepted, res.Warnings)
			}
		})
	}
}

// TestDragCardOntoNothingSaysSo: a card dropped on the page heading, which
// takes no drop, stays in its column, and the answer says the drag did
// nothing.
func TestDragCardOntoNothingSaysSo(t *testing.T) {
	p, _ := openFixture(t, "kanbanboard.html")
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: "Write spec"}}, DragEnd{Target: Target{Selector: "h1"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[window.model.todo[0], window.drops]"); got != `["Write spec",0]` {
		t.Fatalf("first to-do card, drops = %s", got)
	}
	if res.Landed == nil || *res.Landed || !strings.Contains(strings.Join(res.Warnings, " "), "did not move") {
		t.Fatalf("landed %v, warnings %q", deref(res.Landed), res.Warnings)
	}
}

// TestDragSortableReorderLands: in a list that reorders like SortableJS
// (the dragged item moves next to the item under the pointer), dragging
// the first task onto the fourth puts it in the fourth place: landed, no
// warning, one drop. Dragging it back up onto the first lands too.
func TestDragSortableReorderLands(t *testing.T) {
	p, _ := openFixture(t, "sortable.html")
	order := "[[...document.getElementById('list').children].map((li) => li.id).join(','), window.drops]"
	for _, c := range []struct{ from, to, want string }{
		{"Write spec", "User testing", `["t2,t3,t4,t1,t5",1]`},
		{"Ship it", "Review design", `["t5,t2,t3,t4,t1",2]`},
		{"Build prototype", "Review design", `["t5,t3,t2,t4,t1",3]`},
	} {
		res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: c.from}}, DragEnd{Target: Target{Text: c.to}}, DragOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := js(t, p, order); got != c.want {
			t.Fatalf("%s onto %s: order, drops = %s, want %s", c.from, c.to, got, c.want)
		}
		if res.Landed == nil || !*res.Landed || len(res.Warnings) != 0 {
			t.Fatalf("%s onto %s: landed %v, warnings %q", c.from, c.to, deref(res.Landed), res.Warnings)
		}
	}
}

func deref(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

// TestDragSliderHandleLands drags a slider's handle (role=slider, on
// pointer events like noUiSlider) to a point above its track, and past
// its end: the track holds the handle on its axis, so it lands at the
// drop point's x, or at the end of the track, and the answer gives the
// slider's value without advice to retry.
func TestDragSliderHandleLands(t *testing.T) {
	p, _ := openFixture(t, "rangeslider.html")
	ctx := testCtx(t)
	tr := rectOf(t, p, "#track")
	for _, c := range []struct {
		x     float64
		value string
	}{{tr.X + tr.W*0.75, "75"}, {tr.X + tr.W + 120, "100"}} {
		res, err := p.Drag(ctx, DragEnd{Target: Target{Selector: "#handle"}}, DragEnd{Target: Target{Point: &Point{X: c.x, Y: tr.Y - 40}}}, DragOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := js(t, p, "[window.value, window.downs - window.ups]"); got != "["+c.value+",0]" {
			t.Fatalf("value, held = %s, want %s", got, c.value)
		}
		if res.Landed == nil || !*res.Landed || len(res.Warnings) != 0 || res.Value == nil || *res.Value != parseFloat(t, c.value) {
			t.Fatalf("landed %v, value %v, warnings %q", deref(res.Landed), res.Value, res.Warnings)
		}
	}
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDragBetweenSortableLists drags between connected lists that sort
// like SortableJS (items become draggable when pressed, and move next to
// the item under the pointer): a card dropped on another list lands
// there; one dropped on an item of its own list lands next to it; one
// dropped on a column heading, outside every list, stays in the list the
// drag passed over, and the answer names it instead of advising more
// steps.
func TestDragBetweenSortableLists(t *testing.T) {
	p, _ := openFixture(t, "sortlists.html")
	ctx := testCtx(t)
	for _, c := range []struct {
		card   string
		target Target
		want   string
		landed bool
		warn   string
	}{
		{"A1", Target{Selector: "#l-done"}, `"[\"A2,A3\",\"B1,B2,B3,B4\",\"C1,A1\",1,1]"`, true, ""},
		{"B4", Target{Text: "B2"}, `"[\"A2,A3\",\"B1,B4,B2,B3\",\"C1,A1\",2,2]"`, true, ""},
		{"A2", Target{Selector: "#done h2"}, `"[\"A2,A3\",\"B1,B4,B2,B3\",\"C1,A1\",2,3]"`, false, "did not move"},
	} {
		res, err := p.Drag(ctx, DragEnd{Target: Target{Text: c.card}}, DragEnd{Target: c.target}, DragOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := js(t, p, "state()"); got != c.want {
			t.Fatalf("%s onto %s: lists, drops, ends = %s, want %s", c.card, c.target, got, c.want)
		}
		w := strings.Join(res.Warnings, " ")
		if res.Landed == nil || *res.Landed != c.landed || (c.warn == "") != (w == "") || !strings.Contains(w, c.warn) || strings.Contains(w, "more steps") {
			t.Fatalf("%s onto %s: landed %v, warnings %q", c.card, c.target, deref(res.Landed), res.Warnings)
		}
	}
}

// TestDragOutcomeWarning: the advice of a drag that did not land fits
// what happened.
func TestDragOutcomeWarning(t *testing.T) {
	one, two := 0, 1
	for _, c := range []struct {
		name    string
		o       dragOutcome
		method  string
		want    string
		without string
	}{
		{"moved elsewhere in its list", dragOutcome{Source: "li#t1", Moved: true, Index: &two, IndexBefore: &one, Count: 5}, DragHTML5, "from position 1 to 2 of 5", ""},
		{"put into another list", dragOutcome{Source: "div.card", Moved: true, Into: "div#l-doing"}, DragHTML5, "put it into div#l-doing", "more steps"},
		{"same place in its list", dragOutcome{Source: "div.card", Moved: true, Index: &one, IndexBefore: &one, Count: 1, At: &Point{X: 3, Y: 4}}, DragMouse, "centre is now at (3, 4)", "position 1 to 1"},
		{"landed", dragOutcome{Source: "div.card", Moved: true, Landed: true, Into: "div#l-done"}, DragHTML5, "", ""},
		{"did nothing", dragOutcome{Source: "div.card"}, DragHTML5, "did not move", ""},
	} {
		got := c.o.warning(c.method)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) || (c.without != "" && strings.Contains(got, c.without)) {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}
