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
		{"kanban.html", "Write spec", Target{Selector: "#doing"},
			`"[{\"todo\":[\"Design review\",\"Pick a name\"],\"doing\":[\"Build prototype\",\"Set up CI\",\"Fix login\",\"Tune cache\",\"Write spec\"],\"done\":[\"Kick-off\"]},[2,5,1],1]"`},
		{"kanban.html", "Set up CI", Target{Selector: "#done h2"},
			`"[{\"todo\":[\"Write spec\",\"Design review\",\"Pick a name\"],\"doing\":[\"Build prototype\",\"Fix login\",\"Tune cache\"],\"done\":[\"Kick-off\",\"Set up CI\"]},[3,3,2],1]"`},
		{"kanban.html?render=1", "Write spec", Target{Selector: "#doing"},
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
	p, _ := openFixture(t, "kanban.html")
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
