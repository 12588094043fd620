package browser

import (
	"strings"
	"testing"
)

// dragBoardPage is a task list on the left and a scrolling board on the
// right whose "Done" column is below the board's fold. HTML5 drag and
// drop moves a task into Done; the page counts renders of the list,
// dragstarts and drops. With ?rerender, the first scroll of the board
// renders the list again (new nodes, same ids and texts), as a framework
// does when its state changes. With ?dialog, a dialog covers the board.
const dragBoardPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Board</title>
<style>
  body { font: 14px sans-serif; margin: 20px; display: flex; gap: 40px; }
  ul { list-style: none; padding: 0; width: 200px; margin: 0; }
  li { height: 36px; line-height: 36px; margin: 0 0 6px; padding: 0 8px; background: #eef; border: 1px solid #99c; }
  #board { width: 260px; height: 220px; overflow: auto; border: 1px solid #ccc; }
  #done { margin-top: 420px; min-height: 80px; border: 2px dashed #9c9; padding: 6px; }
  #confirm { position: fixed; left: 250px; top: 0; width: 320px; height: 300px; background: #fff; border: 2px solid #333; }
</style></head>
<body>
<ul id="list"></ul>
<div id="board"><p>Board</p><div id="done" aria-label="Done">Done</div></div>
<div id="confirm" role="dialog" aria-label="Confirm move" hidden><p>Move tasks?</p><button onclick="this.parentNode.hidden = true">Cancel</button></div>
<script>
  const q = new URLSearchParams(location.search);
  const list = document.getElementById('list'), done = document.getElementById('done');
  window.renders = 0; window.starts = 0; window.drops = 0;
  const tasks = [['t1', 'Write spec'], ['t2', 'Review design'], ['t3', 'Ship it']];
  function render() {
    window.renders++;
    list.replaceChildren(...tasks.filter(([id]) => !done.querySelector('#' + id)).map(([id, text]) => {
      const li = document.createElement('li');
      li.id = id; li.textContent = text; li.draggable = true;
      return li;
    }));
  }
  render();
  if (q.has('rerender')) document.getElementById('board').addEventListener('scroll', render, { once: true });
  if (q.has('dialog')) document.getElementById('confirm').hidden = false;
  let dragged = null;
  list.addEventListener('dragstart', (e) => { window.starts++; dragged = e.target; e.dataTransfer.setData('text/plain', dragged.id); });
  done.addEventListener('dragover', (e) => { if (dragged) e.preventDefault(); });
  done.addEventListener('drop', (e) => { e.preventDefault(); window.drops++; done.append(dragged); });
  document.addEventListener('dragend', () => { dragged = null; });
</script>
</body></html>`

// A drag whose source the page renders again while the drop target is
// brought into view (the board's scroll re-renders the list) starts again
// from the lookup, once, as the template does for every action: the task
// lands in Done, dropped once, from the list rendered twice.
func TestDragLooksUpASourceReRenderedBeforeThePress(t *testing.T) {
	base := servePages(t, map[string]string{"board.html": dragBoardPage})
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"board.html?rerender", WaitLoad); err != nil {
		t.Fatal(err)
	}
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Selector: "#t1"}}, DragEnd{Target: Target{Selector: "#done"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := js(t, p, "[[...document.querySelectorAll('#done li')].map((li) => li.id).join(','), window.renders, window.starts, window.drops]")
	if got != `["t1",2,1,1]` {
		t.Fatalf("done, renders, dragstarts, drops = %s; result %+v", got, res)
	}
	if res.Landed == nil || !*res.Landed {
		t.Fatalf("the drag that landed says otherwise: %+v", res)
	}
}

// A drop target under a dialog fails the drag before any input, naming
// the dialog and its buttons as click does, and saying it is the drop
// that is refused: the page saw no dragstart and no drop.
func TestDragOntoATargetUnderADialogNamesIt(t *testing.T) {
	base := servePages(t, map[string]string{"board.html": dragBoardPage})
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"board.html?dialog", WaitLoad); err != nil {
		t.Fatal(err)
	}
	_, err := p.Drag(testCtx(t), DragEnd{Target: Target{Selector: "#t1"}}, DragEnd{Target: Target{Selector: "#done"}}, DragOptions{ActionOptions: ActionOptions{Timeout: 2e9}})
	if KindOf(err) != KindElementIntercepted {
		t.Fatalf("err = %v, want ElementInterceptedError", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, `"#done" cannot be dropped onto`) || !strings.Contains(msg, "div#confirm") {
		t.Fatalf("the error does not say the drop target is under the dialog: %v", err)
	}
	if got := js(t, p, "[window.starts, window.drops, document.querySelectorAll('#done li').length]"); got != "[0,0,0]" {
		t.Fatalf("dragstarts, drops, tasks done = %s after a refused drag", got)
	}
}
