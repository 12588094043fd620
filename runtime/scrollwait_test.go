package runtime

import (
	"strings"
	"testing"
)

// TestScrollWaitsForFeedPage: a scroll to the bottom of an infinite feed
// answers once the page the feed's sentinel asks for (an
// IntersectionObserver callback, a timer, then a fetch) is in, in the
// short form and the long form ({"to": "bottom"}) alike; each scroll
// loads one page; a deltaY scroll waits the same way.
func TestScrollWaitsForFeedPage(t *testing.T) {
	tab, _ := openShop(t, "feed.html")
	// The answer comes once the page the scroll asked for is in: the
	// page's own counter says so as the answer arrives.
	const count = `{"pageFunction":"() => [window.pagesLoaded, document.querySelectorAll('article').length]"}`
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":"bottom"},`+count+`]}`)
	mustOK(t, out)
	first := stepOutput(t, out, 0)["scrollY"].(float64)
	if got := jsonString(out.Steps[1].Output); got != "[1,14]" {
		t.Errorf("after one scroll the feed has [pages, stories] %s, want [1,14]", got)
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":{"to":"bottom"}},`+count+`]}`)
	mustOK(t, out)
	if y := stepOutput(t, out, 0)["scrollY"].(float64); y <= first || strings.Contains(string(out.JSON()), "already at the bottom") {
		t.Errorf("the long form did not reach the new bottom (%v, first %v): %s", y, first, out.JSON())
	}
	if got := jsonString(out.Steps[1].Output); got != "[2,20]" {
		t.Errorf("after the long form the feed has [pages, stories] %s, want [2,20]", got)
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":{"deltaY":5000}},`+count+`]}`)
	mustOK(t, out)
	if got := jsonString(out.Steps[1].Output); got != "[3,26]" {
		t.Errorf("after a deltaY scroll the feed has [pages, stories] %s, want [3,26]", got)
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
