package runtime

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestOpenTabThatNeverLoads: an openTab whose page never finishes loading
// closes the tab it opened and says so, without the navigation's advice
// that the tab is usable.
func TestOpenTabThatNeverLoads(t *testing.T) {
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hero.jpg" {
			select {
			case <-stall:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Gallery</title><h1>Gallery</h1><img src="/hero.jpg" alt="Hero">`))
	}))
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`gallery","timeout":1500}]}`)
	if out.OK() || len(out.Steps) != 1 {
		t.Fatalf("openTab of a page that never loads: %s", out.JSON())
	}
	msg := out.Steps[0].Error
	if !strings.Contains(msg, "openTab closed the tab it opened") || strings.Contains(msg, "usable") || !strings.Contains(msg, "domcontentloaded") {
		t.Errorf("message: %s", msg)
	}
}
