package runtime

import (
	"strings"
	"testing"
	"time"
)

// TestShortcutThenDragInOneTab: Control+H on a page that does not handle it
// is Chrome's History shortcut, which opened a tab over the agent's tab;
// the next command's drag then hung until its timeout. The press step now
// warns and leaves the tab in front, and the drag in the next command
// moves the slider.
func TestShortcutThenDragInOneTab(t *testing.T) {
	base := actPagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`rangeslider.html"},{"press":"Control+h"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if w := strings.Join(out.Steps[1].Warning, " "); !strings.Contains(w, "Chrome ran its own shortcut") {
		t.Errorf("press warnings: %q", out.Steps[1].Warning)
	}
	drag := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"drag":{"source":"#handle","target":{"selector":"#track","offsetX":100}},"timeout":8000},{"pageFunction":"[window.value, window.downs, window.ups]"}]}`)
	mustOK(t, drag)
	if got := jsonString(drag.Steps[1].Output); got != `[75,1,1]` {
		t.Fatalf("value, downs, ups = %s", got)
	}
}

// TestUnacknowledgedDragThenNextCommand drags on a page whose pointermove
// handler runs for 6 s, against a 2 s step timeout: the step fails soon
// after its timeout naming what Chrome did not acknowledge and that the
// runaway handler was stopped (PageUnresponsiveError), and the next
// command on the same tab drags the slider.
func TestUnacknowledgedDragThenNextCommand(t *testing.T) {
	base := actPagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`rangeslider.html?busy=6000"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	began := time.Now()
	drag := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"drag":{"source":"#handle","target":{"selector":"#track","offsetX":100}},"timeout":2000}]}`)
	took := time.Since(began)
	st := drag.Steps[0]
	if drag.OK() || st.ErrorType != "PageUnresponsiveError" || !strings.Contains(st.Error, "did not acknowledge the mouse move") || !strings.Contains(st.Error, "was stopped") {
		t.Fatalf("drag: %s", drag.JSON())
	}
	// The whole command (attach, step, answer) is over well before the
	// page's handler would have returned.
	if took >= 5*time.Second {
		t.Errorf("the command took %s", took)
	}
	next := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"drag":{"source":"#handle","target":{"selector":"#track","offsetX":100}}},{"pageFunction":"[window.value, window.downs - window.ups]"}]}`)
	mustOK(t, next)
	if got := jsonString(next.Steps[1].Output); got != `[75,0]` {
		t.Fatalf("value, held = %s", got)
	}
}
