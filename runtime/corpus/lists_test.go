package corpus

import (
	"testing"
)

// TestClusterizeScrollToRow clicks "Row 800" of a Clusterize virtualised
// list with scrollUntilVisible: the row renders only once the list's own
// scroll container reaches it, and the list's click handler opens it once.
func TestClusterizeScrollToRow(t *testing.T) {
	t.Parallel()
	a := openPage(t, "clusterize.html", "[data-ready=clusterize]")
	// Clusterize renders its rows again on the scroll that brings Row 800
	// into view: the press waits for that, so one click opens it, and the
	// answer does not doubt it.
	noWarning(t, a.do(`{"click":{"text":"Row 800","exact":true,"scrollUntilVisible":true}}`))
	if got := a.evalJSON(`() => opened`); got != `[800]` {
		t.Fatalf("opened rows = %s, want [800]", got)
	}
}

// TestClusterizeScrollUpToRow clicks "Row 12" with scrollUntilVisible
// after the list was scrolled far past it (by its ref, as under a mouse
// wheel): the row is above what Clusterize renders, so the search scrolls
// the list up, and the list's click handler opens the row once.
func TestClusterizeScrollUpToRow(t *testing.T) {
	t.Parallel()
	a := openPage(t, "clusterize.html", "[data-ready=clusterize]")
	list := refIn(t, a.snapshot(), `list "Entries"`)
	a.do(`{"scroll":{"ref":` + q(list) + `,"deltaY":20000}}`)
	a.waitFor(`() => !document.querySelector('#contentArea li[data-n="12"]')`)
	noWarning(t, a.do(`{"click":{"text":"Row 12","exact":true,"scrollUntilVisible":true}}`))
	if got := a.evalJSON(`() => opened`); got != `[12]` {
		t.Fatalf("opened rows = %s, want [12]", got)
	}
}

// TestClusterizeRowByRef scrolls the list by its ref and clicks rows it
// rendered by their refs in a new snapshot (the list, not the row,
// handles the click).
func TestClusterizeRowByRef(t *testing.T) {
	t.Parallel()
	a := openPage(t, "clusterize.html", "[data-ready=clusterize]")
	// Scrolled by the list's own ref: its scroll container moves, as
	// under a mouse wheel over the list.
	list := refIn(t, a.snapshot(), `list "Entries"`)
	a.do(`{"scroll":{"ref":` + q(list) + `,"deltaY":5100}}`)
	a.waitFor(`() => !!document.querySelector('#contentArea li[data-n="180"]')`)
	// Rows up to 2000 are listed in order: Row 180 comes before Row 1800.
	snap := a.snapshot()
	row := refIn(t, snap, `listitem [ref=`, `]: Row 180`)
	noWarning(t, a.do(`{"click":`+q(row)+`}`))
	if got := a.evalJSON(`() => opened`); got != `[180]` {
		t.Fatalf("opened rows = %s, want [180]", got)
	}
	// A row rendered below the list's visible part: the click scrolls it
	// into view, Clusterize renders its rows again, and the click waits
	// for that and presses the fresh Row 230: opened once, no warning.
	below := refIn(t, snap, `listitem [ref=`, `]: Row 230`)
	noWarning(t, a.do(`{"click":`+q(below)+`}`))
	if got := a.evalJSON(`() => opened`); got != `[180,230]` {
		t.Fatalf("opened rows = %s, want [180,230]", got)
	}
}

// TestFeedLikeWithScroll clicks "Like post 57" in an infinite feed that
// scrolls inside a page section and loads ten posts at a time: the feed
// loads until post 57 exists and exactly that post is liked, once.
func TestFeedLikeWithScroll(t *testing.T) {
	t.Parallel()
	a := openPage(t, "feed.html", "[data-ready=feed]")
	a.do(`{"click":{"text":"Like post 57","exact":true,"scrollUntilVisible":true}}`)
	if got := a.evalJSON(`() => likes`); got != `{"57":1}` {
		t.Fatalf("likes = %s, want {\"57\":1}", got)
	}
}
