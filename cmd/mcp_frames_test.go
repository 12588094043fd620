package cmd

import (
	"net/http"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestMCPEveryCallStartsInTheTopDocument: an MCP session keeps its tab
// between calls, but not the frame a call's frame step chose (spec
// §19.12): each call that begins with {"frame": "#pay"} finds the iframe
// from the top, and so does a one-shot command on the same tab; the
// frame's button is clicked exactly once per call.
func TestMCPEveryCallStartsInTheTopDocument(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/pay.html" {
			w.Write([]byte(`<!doctype html><title>Pay</title><button onclick="window.paid = (window.paid || 0) + 1">Pay</button>`))
			return
		}
		w.Write([]byte(`<!doctype html><title>Shop</title><iframe id="pay" title="Payment" src="/pay.html"></iframe>`))
	}))
	cs := mcpSession(t)
	a := call(t, cs, "tabs", map[string]any{"action": "open", "url": base})
	tab, _ := a.out["tab"].(string)
	if a.isError || tab == "" {
		t.Fatalf("open: %s", a.text)
	}
	t.Cleanup(func() { cli(t, t.TempDir(), nil, `{"steps":[{"closeTab":"`+tab+`"}]}`) })
	pay := []any{map[string]any{"frame": "#pay"}, map[string]any{"wait": "button"}, map[string]any{"click": "button"}, map[string]any{"pageFunction": "window.paid"}}
	for want := 1; want <= 2; want++ {
		a := call(t, cs, "steps", map[string]any{"tab": tab, "capture": "none", "steps": pay})
		if got := a.field("steps", "3", "output"); a.isError || got != float64(want) {
			t.Fatalf("call %d: paid %v: %s", want, got, a.text)
		}
	}
	a = call(t, cs, "steps", map[string]any{"tab": tab, "capture": "none", "steps": []any{map[string]any{"pageFunction": "document.title"}}})
	if got := a.field("steps", "0", "output"); a.isError || got != "Shop" {
		t.Fatalf("the call after a frame step ran in %v: %s", got, a.text)
	}
	r := cli(t, t.TempDir(), nil, `{"tab":"`+tab+`","steps":[{"frame":"#pay"},{"click":"button"},{"pageFunction":"window.paid"}]}`)
	if got := r.field("steps", "2", "output"); r.code != 0 || got != float64(3) {
		t.Fatalf("a one-shot command after the MCP calls: paid %v: %s %s", got, r.stdout, r.stderr)
	}
}
