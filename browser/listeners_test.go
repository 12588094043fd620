package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// clickBoardPage is a board whose cards and menu entries are plain divs
// with listeners: the page counts each activation by entry.
const clickBoardPage = `<!doctype html><title>Board</title>
<header><nav aria-label="Main"><a href="/">Home</a></nav></header>
<main><h1>Board</h1>
<div class="col"><div class="card" id="c1"><b>Fix login bug</b><div>Alice</div></div></div>
<div class="menu" id="menu"><div class="item">Edit</div><div class="item">Duplicate</div><div class="item">Archive</div></div>
</main>
<script>
window.hits = {};
const hit = (k) => { window.hits[k] = (window.hits[k] || 0) + 1; };
document.getElementById('c1').addEventListener('click', () => hit('c1'));
document.getElementById('menu').addEventListener('click', (e) => hit(e.target.closest('.item').textContent));
</script>`

// TestClickListenerElementsGetRefs: role-less elements with listeners get
// refs that click them once (a card, entries of a delegating menu), and a
// listener added after the first snapshot is seen by the next one.
func TestClickListenerElementsGetRefs(t *testing.T) {
	p := loadHTML(t, clickBoardPage)
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	card := refOf(t, s.YAML, `generic [clickable]`)
	dup := refOf(t, s.YAML, `Duplicate`)
	click(t, p, Target{Ref: card}, ClickOptions{})
	click(t, p, Target{Ref: dup}, ClickOptions{})
	hits := pageHits(t, p)
	if hits["c1"] != 1 || hits["Duplicate"] != 1 || len(hits) != 2 {
		t.Fatalf("page counted %v, want one click on the card and one on Duplicate", hits)
	}
	if _, err := p.Eval(testCtx(t), `(() => { const d = document.createElement('div'); d.id = 'late'; d.textContent = 'Late card'; d.addEventListener('click', () => { window.hits.late = (window.hits.late || 0) + 1; }); document.querySelector('main').append(d); return true; })()`); err != nil {
		t.Fatal(err)
	}
	s, err = p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	late := refOf(t, s.YAML, `Late card`)
	click(t, p, Target{Ref: late}, ClickOptions{})
	hits = pageHits(t, p)
	if hits["late"] != 1 {
		t.Fatalf("page counted %v, want one click on the late card", hits)
	}
}

func pageHits(t *testing.T, p *Page) map[string]int {
	t.Helper()
	raw, err := p.Eval(testCtx(t), "window.hits")
	if err != nil {
		t.Fatal(err)
	}
	var hits map[string]int
	if err := json.Unmarshal(raw, &hits); err != nil {
		t.Fatal(err)
	}
	return hits
}

// BenchmarkClickListenerScan is what the listener scan adds to a snapshot:
// on a 5,000-element page with 250 click listeners, the first snapshot of
// a document (DOMDebugger scan, node resolution, marking) and every later
// one (the DOMDebugger scan again, for listeners added since).
//
//	go test ./browser -run '^$' -bench ClickListenerScan -benchtime 20x
func BenchmarkClickListenerScan(b *testing.B) {
	base := servePages(b, map[string]string{"big.html": bigFormPage() + `<script>document.querySelectorAll('.row').forEach(r => r.addEventListener('click', () => {}))</script>`})
	load := navigateTo(b, base+"big.html")
	b.Run("FirstPerDocument", func(b *testing.B) {
		p := openTestTab(b)
		for b.Loop() {
			b.StopTimer()
			load(p)
			b.StartTimer()
			p.scanClickListeners(context.Background())
		}
	})
	b.Run("Later", func(b *testing.B) {
		p := openTestTab(b)
		load(p)
		p.scanClickListeners(context.Background())
		for b.Loop() {
			p.scanClickListeners(context.Background())
		}
	})
}

// TestManyClickListenersScannedInPage: with many listener rows every row
// gets a ref that clicks it once.
func TestManyClickListenersScannedInPage(t *testing.T) {
	const resolveClicksUpTo = 30 // the rows past it were once scanned another way
	var rows strings.Builder
	for i := range resolveClicksUpTo + 10 {
		fmt.Fprintf(&rows, `<div class="row r%d">Row %d</div>`, i, i)
	}
	p := loadHTML(t, `<!doctype html><title>Rows</title><main><h1>Rows</h1><section>`+rows.String()+`</section></main>
<script>window.hits = {}; document.querySelectorAll('.row').forEach(r => r.addEventListener('pointerdown', () => { window.hits[r.textContent] = (window.hits[r.textContent] || 0) + 1; }));</script>`)
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(s.YAML, "[clickable]"); got != resolveClicksUpTo+10 {
		t.Fatalf("%d clickable lines, want %d:\n%s", got, resolveClicksUpTo+10, s.YAML)
	}
	last := fmt.Sprintf("Row %d", resolveClicksUpTo+9)
	click(t, p, Target{Ref: refOf(t, s.YAML, ": "+last)}, ClickOptions{})
	if hits := pageHits(t, p); hits[last] != 1 || len(hits) != 1 {
		t.Fatalf("page counted %v, want one press on %s", hits, last)
	}
}
