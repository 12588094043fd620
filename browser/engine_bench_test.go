package browser

import (
	"context"
	"testing"
)

// BenchmarkEngineInstall is installing the engine in a fresh document of
// a small page (what the first engine call after a navigation pays on
// top of its own work): the script's bytes over CDP, its parse and its
// top-level run.
//
//	go test ./browser -run '^$' -bench EngineInstall -benchtime 30x
func BenchmarkEngineInstall(b *testing.B) {
	base := servePages(b, map[string]string{"small.html": `<!doctype html><title>Small</title><main><h1>Shop</h1><button>Buy</button></main>`})
	p := openTestTab(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		navigateTo(b, base+"small.html")(p)
		b.StartTimer()
		if err := p.installEngine(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(engineSource())), "script-bytes")
}
