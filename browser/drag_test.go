package browser

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
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
	if res.Method != DragHTML5 {
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

// serveCrossSiteBoard serves sortable.html from 127.0.0.2 inside a page
// from 127.0.0.1: another site, so Chrome runs the frame in its own
// process (an out-of-process iframe with its own session).
func serveCrossSiteBoard(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	board := httptest.NewUnstartedServer(http.FileServer(http.FS(os.DirFS("testdata"))))
	board.Listener.Close()
	board.Listener = ln
	board.Start()
	t.Cleanup(board.Close)
	return servePages(t, map[string]string{"page.html": `<!doctype html><title>Team space</title>
<h1>Team space</h1><p>The board below is an embedded app from another site.</p>
<section style="height: 1100px">Team news…</section>
<iframe name="board" src="` + board.URL + `/act/sortable.html" style="width: 500px; height: 520px; margin-left: 40px"></iframe>`})
}

// TestDragInCrossSiteFrame reorders the list inside an out-of-process
// iframe that starts below the fold: the page scrolls the iframe into view
// so that Chrome's own HTML5 drag reaches it, and the task lands in the
// fourth place.
func TestDragInCrossSiteFrame(t *testing.T) {
	base := serveCrossSiteBoard(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"page.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	info, _, err := p.Frames().Switch(ctx, FrameSpec{Name: "board"})
	if err != nil {
		t.Fatal(err)
	}
	if !info.OutOfProcess {
		t.Fatalf("the board frame is not out of process: %+v", info)
	}
	res, err := p.Drag(ctx, DragEnd{Target: Target{Text: "Write spec"}}, DragEnd{Target: Target{Text: "User testing"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := js(t, p, "[[...document.getElementById('list').children].map((li) => li.id).join(','), window.drops]")
	if got != `["t2,t3,t4,t1,t5",1]` {
		t.Fatalf("order, drops = %s (log %s), result %+v", got, js(t, p, "window.log"), res)
	}
	if res.Method != DragHTML5 {
		t.Fatalf("result %+v", res)
	}
	// Into the Done column of the frame, too.
	if _, err := p.Drag(ctx, DragEnd{Target: Target{Text: "Ship it"}}, DragEnd{Target: Target{Selector: "#done"}}, DragOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[document.querySelector('#done li').id, window.drops]"); got != `["t5",2]` {
		t.Fatalf("done column, drops = %s", got)
	}
}

// TestDragOntoDropZoneIsQuiet: a drop zone that takes the data and leaves
// the source in place (an upload area, a trash can) is an accepted drop,
// not a warning.
func TestDragOntoDropZoneIsQuiet(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Selector: "#item"}}, DragEnd{Target: Target{Selector: "#zone"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if js(t, p, "hits.dropped") != `"item-42"` || !res.DropAccepted || res.SourceMoved == nil || *res.SourceMoved || len(res.Warnings) != 0 {
		t.Fatalf("drop zone: %+v (page %s)", res, js(t, p, "JSON.stringify(hits)"))
	}
}

// TestDragPointerSortable reorders a list built on pointer events (no
// HTML5 drag) that ignores moves for 30 ms after each reorder: the song
// lands in the fourth place and the page saw one drop.
func TestDragPointerSortable(t *testing.T) {
	p, _ := openFixture(t, "pointersort.html")
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Text: "Intro"}}, DragEnd{Target: Target{Text: "Red"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := js(t, p, "[[...document.getElementById('songs').children].map((li) => li.id).join(','), window.drops]")
	if got != `["s2,s3,s4,s1,s5",1]` {
		t.Fatalf("order, drops = %s (log %s), result %+v", got, js(t, p, "window.log"), res)
	}
	if res.Method != DragMouse || len(res.Warnings) != 0 || res.Landed == nil || !*res.Landed {
		t.Fatalf("result %+v", res)
	}
}

// BenchmarkDragSortable measures one paced drag (moves, dwell, drop and
// verification) on the sortable list: the first task onto the fourth.
func BenchmarkDragSortable(b *testing.B) {
	base := browsertest.Serve(b, os.DirFS("testdata"))
	p := openTestTab(b)
	ctx := context.Background()
	if _, err := p.Navigate(ctx, base+"act/sortable.html", WaitLoad); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Drag(ctx, DragEnd{Target: Target{Selector: "#list li:nth-child(1)"}}, DragEnd{Target: Target{Selector: "#list li:nth-child(4)"}}, DragOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
