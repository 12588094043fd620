package browser

import (
	"strings"
	"testing"
)

// TestDragSortableThrottled drags the first task of a sortable list onto
// the fourth; the list (like SortableJS) ignores dragover for 30 ms after
// each reorder. Paced like a hand, with a dwell over the target, the task
// lands in the fourth place, and the page saw one drop.
func TestDragSortableThrottled(t *testing.T) {
	p, _ := openFixture(t, "sortable.html")
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: "Write spec"}}, DragEnd{Target: Target{Text: "User testing"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := js(t, p, "[[...document.getElementById('list').children].map((li) => li.id).join(','), window.drops]")
	if got != `["t2,t3,t4,t1,t5",1]` {
		t.Fatalf("order, drops = %s (log %s), result %+v", got, js(t, p, "window.log"), res)
	}
	if res.Method != DragHTML5 || len(res.Warnings) != 0 {
		t.Fatalf("result %+v", res)
	}
	// Up again: the last task to the top.
	if _, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: "Ship it"}}, DragEnd{Target: Target{Text: "Review design"}}, DragOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[[...document.getElementById('list').children].map((li) => li.id).join(','), window.drops]"); got != `["t5,t2,t3,t4,t1",2]` {
		t.Fatalf("order, drops = %s (log %s)", got, js(t, p, "window.log"))
	}
}

// TestDragIntoColumn drags a task into another container: the source ends
// inside the drop target, which counts as landing.
func TestDragIntoColumn(t *testing.T) {
	p, _ := openFixture(t, "sortable.html")
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: "Build prototype"}}, DragEnd{Target: Target{Selector: "#done"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[document.querySelector('#done li').id, window.drops]"); got != `["t3",1]` {
		t.Fatalf("done column, drops = %s (log %s)", got, js(t, p, "window.log"))
	}
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings: %q", res.Warnings)
	}
}

// TestDragSaysWhenNothingLanded: a drop the page refuses (a task dropped on
// the page heading, where nothing accepts it) is not a bare ok: the result
// warns that the source did not move.
func TestDragSaysWhenNothingLanded(t *testing.T) {
	p, _ := openFixture(t, "sortable.html")
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: "Write spec"}}, DragEnd{Target: Target{Text: "Sprint backlog"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[[...document.getElementById('list').children].map((li) => li.id).join(','), window.drops]"); got != `["t1,t2,t3,t4,t5",0]` {
		t.Fatalf("order, drops = %s", got)
	}
	if len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, " "), "did not move") {
		t.Fatalf("no warning for a drag that did nothing: %+v", res)
	}
}

// TestDragWarnsWhenSourceMissesTheDropPoint: a list that ignores dragover
// for 10 s after each reorder moves the task one place only; the answer
// says where it ended instead of a bare ok.
func TestDragWarnsWhenSourceMissesTheDropPoint(t *testing.T) {
	p, _ := openFixture(t, "sortable.html?throttle=10000")
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: "Write spec"}}, DragEnd{Target: Target{Text: "User testing"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[[...document.getElementById('list').children].map((li) => li.id).join(','), window.drops]"); got != `["t2,t1,t3,t4,t5",1]` {
		t.Fatalf("order, drops = %s", got)
	}
	w := strings.Join(res.Warnings, " ")
	if !strings.Contains(w, "did not land at the drop point") || !strings.Contains(w, "from position 1 to 2 of 5") || res.Landed == nil || *res.Landed {
		t.Fatalf("result %+v", res)
	}
}
