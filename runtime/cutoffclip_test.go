package runtime

import (
	"regexp"
	"strings"
	"testing"
)

// listed counts the lines of the viewport snapshot that list an item of
// the inbox ("listitem: Message N").
var listedMessage = regexp.MustCompile(`(?m)^\s*- listitem: Message (\d+)$`)

// TestCutNoteCountsWhatTheAnswerLists: a list that scrolls inside its own
// box (180 px of 40 rows) shows six rows; the answer lists those and its
// note says "6 of 40 items shown, 34 below" — before, both the listing
// and the note counted every row inside the window (21), rows the list's
// box cuts off. Scrolled down by the list's ref, rows above and below,
// and the note's count is again what is listed, which is what the page
// shows.
func TestCutNoteCountsWhatTheAnswerLists(t *testing.T) {
	tab, base := openShop(t, "inbox.html")
	visible := func() string {
		return pageJSON(t, tab, `(() => { const box = document.getElementById('messages').getBoundingClientRect(); return [...document.querySelectorAll('#messages li')].filter((li) => { const r = li.getBoundingClientRect(); return r.bottom > box.top && r.top < box.bottom; }).map((li) => li.textContent.replace('Message ', '')).join(','); })()`)
	}
	check := func(out *Output, wantAbove bool) {
		t.Helper()
		mustOK(t, out)
		var got []string
		for _, m := range listedMessage.FindAllStringSubmatch(out.ViewportSnap, -1) {
			got = append(got, m[1])
		}
		if want := strings.Trim(visible(), `"`); strings.Join(got, ",") != want {
			t.Errorf("the answer lists messages %v; the page shows %s:\n%s", got, want, out.ViewportSnap)
		}
		m := cutNote.FindStringSubmatch(out.ViewportSnap)
		if m == nil || m[1] != "list" || m[3] != "40" {
			t.Fatalf("no note for the list:\n%s", out.ViewportSnap)
		}
		if atoi(m[2]) != len(got) || strings.Contains(m[5], " above") != wantAbove || !strings.HasSuffix(m[5], " below") {
			t.Errorf("note %q, but the answer lists %d messages:\n%s", m[0], len(got), out.ViewportSnap)
		}
	}
	check(runJSON(t, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`inbox.html"}]}`), false)
	check(runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":{"selector":"#messages","deltaY":300}}]}`), true)
	if got := pageJSON(t, tab, "document.getElementById('messages').scrollTop > 0 && window.scrollY === 0"); got != "true" {
		t.Errorf("the scroll did not move the list alone: %s", got)
	}
}
