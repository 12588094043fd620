package runtime

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// TestOpenTabWhoseTabIsClosedWhileItLoads (issue 31, item 10): when the
// tab openTab opened is closed while its page loads (by the page, the
// user or another agent), openTab fails saying so, not that it closed the
// tab itself, and neither the alias nor the tab is left in listTabs. A
// page that never loads is closed by openTab, and is gone when it says so.
func TestOpenTabWhoseTabIsClosedWhileItLoads(t *testing.T) {
	c := browsertest.Require(t)
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/closer.png":
			// Another party closes the tab while its page loads.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			list, _ := chrome.List(ctx, c.Endpoint)
			for _, tg := range list {
				if strings.Contains(tg.URL, "/closed.html") {
					chrome.Close(ctx, c.Endpoint, tg.ID)
				}
			}
			fallthrough
		case "/stall.png":
			select {
			case <-stall:
			case <-r.Context().Done():
			}
			return
		}
		img := "/stall.png"
		if r.URL.Path == "/closed.html" {
			img = "/closer.png"
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Loading</title><h1>Loading</h1><img src="` + img + `" alt="x">`))
	}))
	for _, tc := range []struct{ page, want, not string }{
		{"closed.html", "was closed while its page loaded", "openTab closed the tab"},
		{"never.html", "openTab closed the tab it opened", "still open"},
	} {
		t.Run(tc.page, func(t *testing.T) {
			before := openTargets(t)
			out := runJSON(t, `{"steps":[{"openTab":"`+base+tc.page+`","timeout":3000}]}`)
			closeTabAfter(t, out)
			if out.OK() || len(out.Steps) != 1 {
				t.Fatalf("openTab: %s", out.JSON())
			}
			msg := out.Steps[0].Error
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, tc.not) {
				t.Errorf("openTab answered: %s", out.JSON())
			}
			// No tab and no alias stays behind.
			for id, u := range openTargets(t) {
				if _, had := before[id]; !had {
					t.Errorf("a tab is left open at %s", u)
				}
			}
			list := runJSON(t, `{"steps":[{"listTabs":true}]}`)
			mustOK(t, list)
			if strings.Contains(string(list.JSON()), tc.page) {
				t.Errorf("listTabs: %s", list.JSON())
			}
		})
	}
}
