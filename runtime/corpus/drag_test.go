package corpus

import (
	"strconv"
	"testing"
)

// TestNoUiSliderDragHandle drags noUiSlider's handle (by its ref) 150 px
// to the right on a 500 px track: the slider's value rises by about 30,
// its change event fires once, and the answer does not doubt the drag.
func TestNoUiSliderDragHandle(t *testing.T) {
	t.Parallel()
	a := openPage(t, "nouislider.html", "[data-ready=nouislider]")
	handle := refIn(t, a.snapshot(), `slider "Maximum price"`)
	out := a.do(`{"drag":{"source":` + q(handle) + `,"target":{"ref":` + q(handle) + `,"offsetX":150}}}`)
	dragOK(t, out, 0)
	got, _ := strconv.ParseFloat(a.eval(`() => slider.get()`).(string), 64)
	if got < 40 || got > 60 {
		t.Errorf("slider.get() = %v after a 150 px drag from 20, want about 50", got)
	}
	if n := a.eval(`() => changes`); n != 1.0 {
		t.Errorf("the slider's change event fired %v times, want once", n)
	}
}

// TestNoUiSliderKeyboard focuses the handle by ref and presses
// ArrowRight three times: noUiSlider steps by 1 each time.
func TestNoUiSliderKeyboard(t *testing.T) {
	t.Parallel()
	a := openPage(t, "nouislider.html", "[data-ready=nouislider]")
	handle := refIn(t, a.snapshot(), `slider "Maximum price"`)
	a.do(`{"focus":`+q(handle)+`}`, `{"press":"ArrowRight"}`, `{"press":"ArrowRight"}`, `{"press":"ArrowRight"}`)
	if got := a.eval(`() => slider.get()`); got != "23.00" {
		t.Fatalf("slider.get() = %v, want 23.00", got)
	}
}

// TestSortableReorder drags the fourth task of a SortableJS list (HTML5
// drag and drop) onto the first: Sortable's own order has it first.
func TestSortableReorder(t *testing.T) {
	t.Parallel()
	a := openPage(t, "sortable.html", "[data-ready=sortable]")
	from, to := a.centre("listitem", "Publish packages"), a.centre("listitem", "Build artifacts")
	out := a.do(`{"drag":{"source":` + from + `,"target":` + to + `}}`)
	dragOK(t, out, 0)
	if got := a.evalJSON(`() => sortable.toArray()`); got != `["publish","build","test","tag","announce"]` {
		t.Errorf("sortable.toArray() = %s", got)
	}
	if n := a.eval(`() => ends`); n != 1.0 {
		t.Errorf("Sortable's onEnd ran %v times, want once", n)
	}
}

// TestKanbanMoveCard drags a card onto the Done column of a SortableJS
// board: the card is in Done (the column appends it), the counts update,
// and the answer does not report the drag as a probable failure.
func TestKanbanMoveCard(t *testing.T) {
	t.Parallel()
	a := openPage(t, "kanban.html", "[data-ready=kanban]")
	from, to := a.centre("listitem", "Fix login bug"), a.centre("list", "Done (0)")
	out := a.do(`{"drag":{"source":` + from + `,"target":` + to + `}}`)
	dragOK(t, out, 0)
	if got := a.evalJSON(`() => [columns(), moves]`); got != `[{"doing":["c4"],"done":["c2"],"todo":["c1","c3"]},["c2:todo\u003edone"]]` {
		t.Errorf("board after the drag: %s", got)
	}
}

// TestKanbanMoveCardToBusyColumn drags a card onto the middle of a column
// that already holds a card: Sortable appends it below that card, not
// under the drop point, and the answer must still not doubt the drag.
func TestKanbanMoveCardToBusyColumn(t *testing.T) {
	t.Parallel()
	a := openPage(t, "kanban.html", "[data-ready=kanban]")
	from, to := a.centre("listitem", "Write release notes"), a.centre("list", "Doing (1)")
	out := a.do(`{"drag":{"source":` + from + `,"target":` + to + `}}`)
	dragOK(t, out, 0)
	if got := a.evalJSON(`() => [columns(), moves]`); got != `[{"doing":["c4","c1"],"done":[],"todo":["c2","c3"]},["c1:todo\u003edoing"]]` {
		t.Errorf("board after the drag: %s", got)
	}
}

// TestHTML5KanbanMoveCard drags a card of a kanban written on the HTML5
// drag and drop API onto the Next column, whose middle is another card:
// the column appends the card (so it does not end under the drop point),
// the drop handler runs once, and the answer must not doubt the drag.
func TestHTML5KanbanMoveCard(t *testing.T) {
	t.Parallel()
	a := openPage(t, "html5kanban.html", "[data-ready=html5kanban]")
	from, to := a.centre("listitem", "Dark mode"), a.centre("list", "Next (3)")
	out := a.do(`{"drag":{"source":` + from + `,"target":` + to + `}}`)
	dragOK(t, out, 0)
	if got := a.evalJSON(`() => [columns(), drops]`); got != `[{"later":["r2"],"next":["r3","r4","r5","r1"]},["r1\u003enext"]]` {
		t.Errorf("board after the drag: %s", got)
	}
}

// TestDragulaMoveTicket drags a ticket to the Resolved lane of a dragula
// board (mouse events, not HTML5): dragula drops it there once.
func TestDragulaMoveTicket(t *testing.T) {
	t.Parallel()
	a := openPage(t, "dragula.html", "[data-ready=dragula]")
	from, to := a.centre("listitem", "Ticket 102: password reset"), a.centre("list", "Resolved tickets")
	out := a.do(`{"drag":{"source":` + from + `,"target":` + to + `}}`)
	dragOK(t, out, 0)
	if got := a.evalJSON(`() => [lanes(), drops]`); got != `[{"open":["t1","t3"],"resolved":["t4","t2"]},["t2\u003eresolved"]]` {
		t.Errorf("lanes after the drag: %s", got)
	}
}

// TestJQueryUISortable drags the last stop of a jQuery UI sortable (mouse
// events, pointer tolerance) onto the upper part of the first: the
// widget's order has it first, updated once.
func TestJQueryUISortable(t *testing.T) {
	t.Parallel()
	a := openPage(t, "jqueryui.html", "[data-ready=jqueryui]")
	from := a.centre("listitem", "Prague")
	x, y, w, h := a.box("listitem", "Rome")
	out := a.do(`{"drag":{"source":` + from + `,"target":` + point(x+w/2, y+h/4) + `}}`)
	dragOK(t, out, 0)
	if got := a.evalJSON(`() => [$('#stops').sortable('toArray', {attribute: 'data-id'}), sorts]`); got != `[["prague","rome","paris","vienna"],1]` {
		t.Errorf("stops after the drag: %s", got)
	}
}

// TestSwiperSwipe drags a Swiper slide from its right edge to its left,
// as a user swipes with the mouse (past half the width, so Swiper does not
// snap back): the carousel moves to the second slide.
func TestSwiperSwipe(t *testing.T) {
	t.Parallel()
	a := openPage(t, "swiper.html", "[data-ready=swiper]")
	x, y, w, h := a.box("group", "1 / 4")
	out := a.do(`{"drag":{"source":` + point(x+w-40, y+h/2) + `,"target":` + point(x+40, y+h/2) + `}}`)
	dragOK(t, out, 0)
	a.waitFor(`() => swiper.activeIndex === 1`)
}
