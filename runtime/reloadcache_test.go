package runtime

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestReloadIgnoreCacheFetchesCachedResourcesAgain: a plain reload keeps
// a script the HTTP cache still holds (the page runs the version it had),
// and {"reload":{"ignoreCache":true}} fetches it from the server again, so
// the page runs the new version. The page's own state says which version
// ran; the server counts the fetches.
func TestReloadIgnoreCacheFetchesCachedResourcesAgain(t *testing.T) {
	var fetches atomic.Int32
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/version.js" {
			n := fetches.Add(1)
			w.Header().Set("Content-Type", "text/javascript")
			w.Header().Set("Cache-Control", "public, max-age=3600")
			fmt.Fprintf(w, "window.scriptVersion = %d;", n)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Cache-Control", "no-cache")
		fmt.Fprint(w, `<!doctype html><title>Release notes</title><h1>Release notes</h1><script src="/version.js"></script>`)
	}))
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`notes.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	version := func(steps string) string {
		t.Helper()
		out := runJSON(t, `{"tab":"`+open.Tab+`","steps":[`+steps+`{"pageFunction":"window.scriptVersion"}]}`)
		mustOK(t, out)
		return jsonString(out.Steps[len(out.Steps)-1].Output)
	}
	if got := version(""); got != "1" {
		t.Fatalf("the first load ran version %s", got)
	}
	if got := version(`{"reload":true},`); got != "1" || fetches.Load() != 1 {
		t.Fatalf("a plain reload ran version %s after %d fetches, want the cached 1 after 1", got, fetches.Load())
	}
	if got := version(`{"reload":{"ignoreCache":true}},`); got != "2" || fetches.Load() != 2 {
		t.Fatalf("reload with ignoreCache ran version %s after %d fetches, want 2 after 2", got, fetches.Load())
	}
	if got := version(`{"reload":{"ignoreCache":false}},`); got != "2" || fetches.Load() != 2 {
		t.Fatalf("reload with ignoreCache false ran version %s after %d fetches, want the cached 2", got, fetches.Load())
	}
}
