package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// serveFeed serves testdata/act/feed.html and its posts API: ten posts per
// request, answered after the delay the page asks for.
func serveFeed(t *testing.T) string {
	t.Helper()
	files := http.FileServer(http.FS(os.DirFS("testdata")))
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/posts" {
			files.ServeHTTP(w, r)
			return
		}
		q := r.URL.Query()
		from, _ := strconv.Atoi(q.Get("from"))
		total, _ := strconv.Atoi(q.Get("total"))
		delay, _ := strconv.Atoi(q.Get("delay"))
		select {
		case <-time.After(time.Duration(delay) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		var posts []map[string]int
		for i := from; i < min(from+10, total); i++ {
			posts = append(posts, map[string]int{"id": i + 1})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(posts)
	}))
}

func openFeed(t *testing.T, query string) *Page {
	t.Helper()
	base := serveFeed(t)
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"act/feed.html?"+query, WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScrollUntilFoundInfiniteFeed scrolls a feed that loads ten posts per
// request (each answered after 400 ms) until post 87 exists, then likes it:
// the page counts exactly one like on that post.
func TestScrollUntilFoundInfiniteFeed(t *testing.T) {
	p := openFeed(t, "total=90&delay=400")
	ctx := testCtx(t)
	tg := Target{Selector: "#post-87 .like"}
	found, err := p.ScrollUntilFound(ctx, tg, 0, 0)
	if err != nil || !found {
		t.Fatalf("scrollUntilFound = %v, %v; page: %s", found, err, js(t, p, "[document.querySelectorAll('.post').length, window.fetches, document.visibilityState, scrollY, innerHeight]"))
	}
	if _, err := p.Click(ctx, tg, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "window.likes"); got != `{"87":1}` {
		t.Fatalf("likes = %s", got)
	}
}

// TestScrollUntilFoundWaitsWhileBusy: a feed whose server answers after
// 1.5 s (longer than the quiet period), already fetching when the search
// starts: its aria-busy keeps the search going until the post arrives.
func TestScrollUntilFoundWaitsWhileBusy(t *testing.T) {
	p := openFeed(t, "total=40&delay=1500")
	found, err := p.ScrollUntilFound(testCtx(t), Target{Text: "Post 35"}, 0, 0)
	if err != nil || !found {
		t.Fatalf("scrollUntilFound = %v, %v; page: %s", found, err, js(t, p, "[document.querySelectorAll('.post').length, window.fetches]"))
	}
	if got := js(t, p, "[document.querySelectorAll('.post').length, window.fetches]"); got != "[40,4]" {
		t.Fatalf("posts, fetches = %s", got)
	}
}

// TestScrollUntilFoundWaitsForRequests: the same slow feed without
// aria-busy: the requests in flight (seen since the search began) keep it
// going.
func TestScrollUntilFoundWaitsForRequests(t *testing.T) {
	p := openFeed(t, "total=40&delay=1500&busy=0")
	waitJS(t, p, "document.querySelectorAll('.post').length === 10")
	found, err := p.ScrollUntilFound(testCtx(t), Target{Text: "Post 35"}, 0, 0)
	if err != nil || !found {
		t.Fatalf("scrollUntilFound = %v, %v; page: %s", found, err, js(t, p, "[document.querySelectorAll('.post').length, window.fetches]"))
	}
	if got := js(t, p, "[document.querySelectorAll('.post').length, window.fetches]"); got != "[40,4]" {
		t.Fatalf("posts, fetches = %s", got)
	}
}

// waitJS polls a page expression until it is true.
func waitJS(t *testing.T, p *Page, expr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for js(t, p, expr) != "true" {
		if time.Now().After(deadline) {
			t.Fatalf("never true: %s", expr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestScrollUntilFoundReportsHowFar: a post that is not in the feed fails
// once the feed ended and stayed quiet, saying how many posts it saw and
// where it stopped.
func TestScrollUntilFoundReportsHowFar(t *testing.T) {
	p := openFeed(t, "total=30&delay=300")
	_, err := p.ScrollUntilFound(testCtx(t), Target{Text: "Post 95"}, 0, 0)
	var e *Error
	if KindOf(err) != KindElementNotFound || !asError(err, &e) {
		t.Fatalf("a post not in the feed: %v", err)
	}
	if !strings.Contains(err.Error(), "main#feed holds 30 items") || !strings.Contains(err.Error(), "stopped growing") || e.Details["items"] != 30 {
		t.Fatalf("error does not say how far it got: %v (%v); page: %s", err, e.Details, js(t, p, "[document.querySelectorAll('.post').length, window.fetches, document.visibilityState, scrollY, innerHeight]"))
	}
	sy := js(t, p, "Math.round(scrollY)")
	if !strings.Contains(err.Error(), fmt.Sprintf("scrollY %s of", sy)) {
		t.Fatalf("error %v does not give the scroll position %s", err, sy)
	}
	if got := js(t, p, "[document.querySelectorAll('.post').length, getComputedStyle(document.getElementById('end')).display]"); got != `[30,"block"]` {
		t.Fatalf("page = %s", got)
	}
}

// TestScrollUntilFoundVirtualList clicks Row 800 of a virtualised list
// (1000 rows, about twenty in the DOM at a time, rendered on the list's own
// scroll) built as @tanstack/virtual builds one and as clusterize.js does,
// and one inside a web component's shadow root:
// the list's container is what scrolls, not the window (which scrolls
// too). The row's own handler ran exactly once.
func TestScrollUntilFoundVirtualList(t *testing.T) {
	for _, mode := range []string{"mode=absolute", "mode=pad", "shadow=1"} {
		t.Run(mode, func(t *testing.T) {
			p, _ := openFixture(t, "virtual.html?"+mode)
			ctx := testCtx(t)
			tg := Target{Text: "Row 800", Exact: true}
			found, err := p.ScrollUntilFound(ctx, tg, 0, 0)
			if err != nil || !found {
				t.Fatalf("scrollUntilFound = %v, %v; page: %s", found, err, js(t, p, "[list.scrollTop, scrollY, document.querySelectorAll('.row').length]"))
			}
			// One click, at once: the scroll listeners the search's last
			// scroll queued ran before the press (they re-render every
			// row), not between the press and the release.
			res, err := p.Click(ctx, tg, ClickOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, "JSON.stringify(window.clicks)"); got != `"{\"800\":1}"` || len(res.Warnings) > 0 {
				t.Fatalf("clicks = %s, warnings %q", got, res.Warnings)
			}
			if got := js(t, p, "list.querySelectorAll('.row').length < 40"); got != "true" {
				t.Fatalf("the list is not virtualised: %s rows", js(t, p, "list.querySelectorAll('.row').length"))
			}
		})
	}
}

// TestClickScrollsVirtualRow clicks a row of a virtualised list that is
// rendered but clipped by the list (the overscan below its bottom edge):
// the click's own check scrolls the list to bring it into view, and the
// list re-renders every row on that scroll. The press comes after the
// list's scroll listener ran, on the row as it is then: one click, no
// warning, in each way of building the list.
func TestClickScrollsVirtualRow(t *testing.T) {
	for _, mode := range []string{"mode=absolute", "mode=pad", "shadow=1"} {
		t.Run(mode, func(t *testing.T) {
			p, _ := openFixture(t, "virtual.html?"+mode)
			ctx := testCtx(t)
			for _, row := range []string{"18", "35", "52"} {
				res, err := p.Click(ctx, Target{Text: "Row " + row, Exact: true}, ClickOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want := fmt.Sprintf(`"{\"%s\":1}"`, row)
				if got := js(t, p, "JSON.stringify(window.clicks)"); got != want || len(res.Warnings) > 0 {
					t.Fatalf("Row %s: clicks = %s, warnings %q", row, got, res.Warnings)
				}
				js(t, p, "window.clicks = {}")
			}
		})
	}
}

// TestScrollUntilFoundAbove clicks Row 40 of a virtualised list that
// was scrolled past it first, so the row is above what is rendered: the
// search scrolls up as well (first, when every scroller stood at its end;
// after the way down otherwise). The list scrolled to its end, in each
// build; scrolled to its middle (down first, then up); and a list
// virtualised against the page's own scroll, with the page scrolled to
// its end. The row's handler ran exactly once.
func TestScrollUntilFoundAbove(t *testing.T) {
	for _, c := range []struct{ name, query, scroll string }{
		{"end/absolute", "mode=absolute", "list.scrollTop = 1e6"},
		{"end/pad", "mode=pad", "list.scrollTop = 1e6"},
		{"end/shadow", "shadow=1", "list.scrollTop = 1e6"},
		{"middle", "mode=absolute", "list.scrollTop = 6000"},
		{"page", "page=1", "scrollTo(0, list.getBoundingClientRect().bottom + scrollY - innerHeight)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, _ := openFixture(t, "virtual.html?rows=300&"+c.query)
			ctx := testCtx(t)
			js(t, p, c.scroll)
			waitJS(t, p, "!list.querySelector('.row[data-index=\"39\"]') && !!list.querySelector('.row')")
			tg := Target{Text: "Row 40", Exact: true}
			found, err := p.ScrollUntilFound(ctx, tg, 0, 0)
			if err != nil || !found {
				t.Fatalf("scrollUntilFound = %v, %v; page: %s", found, err, js(t, p, "[list.scrollTop, scrollY, list.querySelector('.row').textContent]"))
			}
			res, err := p.Click(ctx, tg, ClickOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, "JSON.stringify(window.clicks)"); got != `"{\"40\":1}"` || len(res.Warnings) > 0 {
				t.Fatalf("clicks = %s, warnings %q", got, res.Warnings)
			}
		})
	}
}

// TestScrollUntilFoundAboveMissing: a row in neither direction of a list
// scrolled to a third of its height fails with ElementNotFoundError once
// the search went up to the top (the shorter way) and down to the end,
// saying so.
func TestScrollUntilFoundAboveMissing(t *testing.T) {
	p, _ := openFixture(t, "virtual.html?rows=300")
	js(t, p, "list.scrollTop = 3000")
	ctx, cancel := context.WithTimeout(testCtx(t), 30*time.Second)
	defer cancel()
	_, err := p.ScrollUntilFound(ctx, Target{Text: "Row 5000"}, 0, 0)
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "stopped growing") || !strings.Contains(err.Error(), "up to the top of every scroller") {
		t.Fatalf("a row not in the list: %v", err)
	}
	if got := js(t, p, "list.scrollTop === list.scrollHeight - list.clientHeight"); got != "true" {
		t.Fatalf("the search did not go down to the end after the top: list.scrollTop = %s", js(t, p, "list.scrollTop"))
	}
}

// TestScrollUntilFoundVirtualListMissing: a row past the list's end fails
// with ElementNotFoundError once the list's container is at its end and
// nothing grew, saying where that container stands — within the step's
// time.
func TestScrollUntilFoundVirtualListMissing(t *testing.T) {
	p, _ := openFixture(t, "virtual.html?rows=300")
	ctx, cancel := context.WithTimeout(testCtx(t), 30*time.Second)
	defer cancel()
	_, err := p.ScrollUntilFound(ctx, Target{Text: "Row 5000"}, 0, 0)
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "stopped growing") {
		t.Fatalf("a row not in the list: %v", err)
	}
	end := js(t, p, "list.scrollHeight - list.clientHeight")
	if !strings.Contains(err.Error(), "scrolled div#list to "+end+" of 9600") {
		t.Fatalf("error %v does not say where the list stands (scrollTop %s)", err, end)
	}
	if got := js(t, p, "list.scrollTop === list.scrollHeight - list.clientHeight"); got != "true" {
		t.Fatalf("the list was not scrolled to its end: %s", js(t, p, "list.scrollTop"))
	}
}

// TestScrollUntilFoundFeedInSection likes post 57 of a feed that scrolls
// inside a page section and fetches ten more posts (answered after 300 ms)
// when that section nears its bottom; the window scrolls too, and reaches
// its end long before the feed does.
func TestScrollUntilFoundFeedInSection(t *testing.T) {
	base := serveFeed(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, base+"act/sectionfeed.html?total=80&delay=300", WaitLoad); err != nil {
		t.Fatal(err)
	}
	tg := Target{Text: "Like post 57", Exact: true}
	found, err := p.ScrollUntilFound(ctx, tg, 0, 0)
	if err != nil || !found {
		t.Fatalf("scrollUntilFound = %v, %v; page: %s", found, err, js(t, p, "[document.querySelectorAll('.post').length, window.fetches]"))
	}
	if _, err := p.Click(ctx, tg, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "JSON.stringify(window.likes)"); got != `"{\"57\":1}"` {
		t.Fatalf("likes = %s", got)
	}
}

// TestScrollUntilFoundStuckContainer: a container that a scroll cannot
// move (mandatory scroll snapping with one snap point pulls it back) counts
// as at its end: a missing target fails once the page stopped growing,
// not after every one of maxScrolls scrolls of a container that never
// moves.
func TestScrollUntilFoundStuckContainer(t *testing.T) {
	p := loadHTML(t, `<!doctype html><title>Snap</title>
<div id="snap" style="height: 200px; overflow-y: auto; scroll-snap-type: y mandatory">
  <div style="height: 200px; scroll-snap-align: start">Slide one</div>
  <div style="height: 2000px">Tall rest</div>
</div>`)
	if got := js(t, p, "snap.scrollBy({top: 150, behavior: 'instant'}), snap.scrollTop"); got != "0" {
		t.Fatalf("the container moved: scrollTop %s after a scroll, so it is not stuck", got)
	}
	_, err := p.ScrollUntilFound(testCtx(t), Target{Text: "Slide forty"}, 0, 0)
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "stopped growing") {
		t.Fatalf("a target past a stuck container: %v", err)
	}
}
