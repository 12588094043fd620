package browser

import (
	"context"
	"strings"
	"testing"
	"time"
)

// BenchmarkClick is one click step (a button by ref, its handler runs)
// and one fill step (a text field by ref), as the action template runs
// them: resolve, actionability, watch, act, verify.
//
//	go test ./browser -run '^$' -bench 'Click|Fill' -benchtime 20x
func BenchmarkClick(b *testing.B) {
	p := loadHTML(b, `<main><h1>Order</h1>
<label>Name <input id="name"></label>
<button id="buy" onclick="window.buys = (window.buys || 0) + 1">Buy</button></main>`)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		b.Fatal(err)
	}
	buy, name := benchRef(b, s.YAML, `button "Buy"`), benchRef(b, s.YAML, `textbox "Name"`)
	b.Run("click", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.Click(ctx, Target{Ref: buy}, ClickOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fill", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.Fill(ctx, Target{Ref: name}, "Ada Lovelace", FillOptions{Clear: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchRef is refOf for benchmarks.
func benchRef(b *testing.B, yaml, needle string) string {
	b.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		if i := strings.Index(line, "[ref="); i >= 0 && strings.Contains(line, needle) {
			return line[i+5 : i+5+strings.Index(line[i+5:], "]")]
		}
	}
	b.Fatalf("no ref for %q in:\n%s", needle, yaml)
	return ""
}
