package browser

import (
	"strconv"
	"testing"
)

// TestConsoleReadHasEveryMessageLoggedBefore: a read right after the page
// logged thousands of messages has every one of them, in order: the read
// waits until the buffer has taken in every console event Chrome sent
// before it, not until the count looks still for a moment.
func TestConsoleReadHasEveryMessageLoggedBefore(t *testing.T) {
	p, _ := openFixture(t, "points.html")
	const n = 5000
	js(t, p, `for (let i = 0; i < 5000; i++) console.log('message', i, {i, text: 'x'.repeat(200)})`)
	r, err := p.Console().Read(testCtx(t), ConsoleOptions{Limit: maxConsole})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != n {
		t.Fatalf("the read right after the page logged %d messages has %d", n, r.Total)
	}
	for i, m := range r.Messages {
		if want := "message " + strconv.Itoa(i) + " "; len(m.Text) < len(want) || m.Text[:len(want)] != want {
			t.Fatalf("message %d is %.40q, want it to start %q", i, m.Text, want)
		}
	}
}
