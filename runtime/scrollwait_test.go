package runtime

import (
	"strings"
	"testing"
)

// TestScrollWaitsForFeedPage: a scroll to the bottom of an infinite feed
// waits for the page the feed's sentinel asks for (an IntersectionObserver
// callback, a timer, then a fetch) and reports its stories, in the short
// form and the long form ({"to": "bottom"}) alike; each scroll loads one
// page; a deltaY scroll waits the same way.
func TestScrollWaitsForFeedPage(t *testing.T) {
	tab, _ := openShop(t, "feed.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":"bottom"}]}`)
	mustOK(t, out)
	if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "Alpha (page 1)") {
		t.Errorf("the scroll did not wait for the feed's next page: %s", out.JSON())
	}
	if got := pageValue(t, tab, "() => window.pagesLoaded"); got != "1" {
		t.Errorf("after one scroll the feed loaded %s pages, want 1", got)
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":{"to":"bottom"}}]}`)
	mustOK(t, out)
	if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "Alpha (page 2)") || strings.Contains(string(out.JSON()), "already at the bottom") {
		t.Errorf("the long form did not scroll to the bottom and wait: %s", out.JSON())
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":{"deltaY":5000}}]}`)
	mustOK(t, out)
	if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "Alpha (page 3)") {
		t.Errorf("a deltaY scroll did not wait for the feed: %s", out.JSON())
	}
	if got := pageValue(t, tab, "() => window.pagesLoaded"); got != "3" {
		t.Errorf("after three scrolls the feed loaded %s pages, want 3", got)
	}
	for step, want := range map[string]string{
		`{"scroll":{"to":"middle"}}`:              `"middle" is not top or bottom`,
		`{"scroll":{"to":"top","deltaY":5}}`:      "not several",
		`{"scroll":{"to":"top","selector":"h1"}}`: "several targets",
	} {
		bad := runJSON(t, `{"tab":"`+tab+`","steps":[`+step+`]}`)
		if bad.OK() || len(bad.Steps) == 0 || !strings.Contains(bad.Steps[0].Error, want) {
			t.Errorf("%s: %s", step, bad.JSON())
		}
	}
}
