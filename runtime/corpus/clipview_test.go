package corpus

import (
	"strings"
	"testing"
)

// TestSwiperViewShowsTheCurrentSlide: Swiper (11) moves its slides with a
// CSS transform inside a frame that clips them; the answer's viewport
// snapshot lists the slide the carousel shows, not the ones moved out of
// its frame (inside the window, but cut off by the frame), before and
// after two clicks on "Next slide" (which run once each).
func TestSwiperViewShowsTheCurrentSlide(t *testing.T) {
	t.Parallel()
	a := openPage(t, "swiper.html", "[data-ready=swiper]")
	view := a.look(`{"scroll":"top"}`)
	shows := func(view string, want string, others ...string) {
		t.Helper()
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks the shown slide %q:\n%s", want, view)
		}
		for _, o := range others {
			if strings.Contains(view, o) {
				t.Errorf("the view lists %q, a slide moved out of the carousel's frame:\n%s", o, view)
			}
		}
	}
	shows(view, "Front view", "Side view", "Back view", "Detail")
	next := refIn(t, a.snapshot(), `button "Next slide"`)
	view = a.look(`{"click":`+q(next)+`}`, `{"click":`+q(next)+`}`)
	if got := a.evalJSON(`() => swiper.activeIndex`); got != `2` {
		t.Fatalf("swiper.activeIndex = %s, want 2", got)
	}
	shows(view, "Back view", "Front view", "Side view", "Detail")
}
