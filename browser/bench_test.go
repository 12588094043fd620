package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// goSpecURL is the Go spec page of the local Go installation (~3,800
// elements), served over file://.
func goSpecURL(b *testing.B) string {
	p := filepath.Join(goruntime.GOROOT(), "doc", "go_spec.html")
	if _, err := os.Stat(p); err != nil {
		b.Fatalf("no Go spec page: %v", err)
	}
	return "file://" + p
}

// bigFormPage is a generated page of 5,000 elements: a long form and a
// table with links and inputs in its cells.
func bigFormPage() string {
	var s strings.Builder
	s.WriteString(`<!doctype html><title>Big</title><main><form aria-label="Orders">`)
	for i := range 250 {
		fmt.Fprintf(&s, `<div class="row"><label for="f%d">Field %d</label><input id="f%d" name="f%d" value="v%d"></div>`, i, i, i, i, i)
	}
	s.WriteString(`</form><table><thead><tr><th>Item</th><th>Qty</th><th>Price</th><th>Action</th></tr></thead><tbody>`)
	for i := range 700 {
		fmt.Fprintf(&s, `<tr><td><a href="/item/%d">Item %d</a></td><td><input type="number" aria-label="Qty %d" value="%d"></td><td>$%d.00</td><td><button>Remove</button></td></tr>`, i, i, i, i%9, i)
	}
	s.WriteString(`</tbody></table></main>`)
	return s.String()
}

func benchSnapshot(b *testing.B, load func(*Page), opts SnapshotOptions, cold bool) {
	p := openTestTab(b)
	ctx := context.Background()
	load(p)
	var size int
	for b.Loop() {
		if cold {
			b.StopTimer()
			load(p)
			b.StartTimer()
		}
		s, err := p.Snapshot(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		size = len(s.YAML)
	}
	b.ReportMetric(float64(size), "yaml-bytes")
}

func navigateTo(b *testing.B, u string) func(*Page) {
	return func(p *Page) {
		if path, isFile := strings.CutPrefix(u, "file://"); isFile {
			p.SetURLPolicy(URLPolicy{FileDirs: []string{filepath.Dir(path)}})
		}
		if _, err := p.Navigate(context.Background(), u, WaitLoad); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshotGoSpec is a full snapshot (root body) of the Go spec page
// through a real Chromium, CDP round trip included. The Cold variant
// navigates before each snapshot, so the engine is installed and runs on a
// fresh document every time (what the first snapshot after a navigation
// costs).
//
//	go test ./browser -run '^$' -bench SnapshotGoSpec -benchtime 20x
func BenchmarkSnapshotGoSpec(b *testing.B) {
	b.Run("Warm", func(b *testing.B) {
		benchSnapshot(b, navigateTo(b, goSpecURL(b)), SnapshotOptions{Root: "body"}, false)
	})
	b.Run("Cold", func(b *testing.B) { benchSnapshot(b, navigateTo(b, goSpecURL(b)), SnapshotOptions{Root: "body"}, true) })
	b.Run("Viewport", func(b *testing.B) {
		benchSnapshot(b, navigateTo(b, goSpecURL(b)), SnapshotOptions{Root: "body", ViewportOnly: true, Internal: true}, true)
	})
}

// BenchmarkSnapshotBigForm snapshots a generated 5,000-element form and
// table page.
//
//	go test ./browser -run '^$' -bench SnapshotBigForm -benchtime 20x
func BenchmarkSnapshotBigForm(b *testing.B) {
	base := servePages(b, map[string]string{"big.html": bigFormPage()})
	b.Run("Warm", func(b *testing.B) { benchSnapshot(b, navigateTo(b, base+"big.html"), SnapshotOptions{}, false) })
	b.Run("Cold", func(b *testing.B) { benchSnapshot(b, navigateTo(b, base+"big.html"), SnapshotOptions{}, true) })
	// 250 rows with click listeners: the first snapshot of each document
	// scans them through DOMDebugger (listeners.go).
	listeners := servePages(b, map[string]string{"big.html": bigFormPage() + `<script>document.querySelectorAll('.row').forEach(r => r.addEventListener('click', () => {}))</script>`})
	b.Run("ColdListeners", func(b *testing.B) { benchSnapshot(b, navigateTo(b, listeners+"big.html"), SnapshotOptions{}, true) })
	// The same page snapshotted again: each snapshot asks for the
	// listeners added since.
	b.Run("WarmListeners", func(b *testing.B) { benchSnapshot(b, navigateTo(b, listeners+"big.html"), SnapshotOptions{}, false) })
}

// BenchmarkAutoScreenshot is the viewport PNG the post-command capture
// takes, on a small page (fresh frame each time: the page changes before
// every shot, as it does after an action).
//
//	go test ./browser -run '^$' -bench AutoScreenshot -benchtime 30x
func BenchmarkAutoScreenshot(b *testing.B) {
	base := servePages(b, map[string]string{"small.html": `<!doctype html><title>Small</title><main><h1>Shop</h1><button onclick="this.textContent += '!'">Buy</button><p id="n">0</p></main>`})
	p := openTestTab(b)
	ctx := context.Background()
	navigateTo(b, base+"small.html")(p)
	path := filepath.Join(b.TempDir(), "shot.png")
	for _, format := range []string{"png", "jpeg", "webp"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				p.Eval(ctx, `document.getElementById('n').textContent++`)
				b.StartTimer()
				if _, err := p.Camera().SaveImage(ctx, path, ScreenshotOptions{Format: format}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSnapshotThreeCrossSiteFrames snapshots a page holding three
// cross-site (out-of-process) iframes of some thirty elements each.
func BenchmarkSnapshotThreeCrossSiteFrames(b *testing.B) {
	site := browsertest.NewFrameSite(b)
	load := func(p *Page) {
		if _, err := p.Navigate(context.Background(), site.Top+"three.html", WaitLoad); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("default", func(b *testing.B) { benchSnapshot(b, load, SnapshotOptions{}, false) })
	b.Run("noFrames", func(b *testing.B) { benchSnapshot(b, load, SnapshotOptions{NoFrames: true}, false) })
}
