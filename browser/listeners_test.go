package browser

import (
	"encoding/json"
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
