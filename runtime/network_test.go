package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// shop is a storefront fixture: the page's script loads the products from
// an API; buttons call other endpoints. It counts the requests it gets.
type shop struct {
	base string
	mu   sync.Mutex
	hits map[string]int
}

func (s *shop) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

const shopHTML = `<!doctype html><title>Shop</title>
<h1>Products</h1><ul id="list"></ul><p id="msg">loading</p>
<button onclick="load()">Reload</button>
<button onclick="fetch('/api/track', {method: 'POST'}).then(() => msg.textContent = 'tracked', () => msg.textContent = 'track failed')">Track</button>
<button onclick="setTimeout(() => fetch('/api/items?page=2').then(r => r.json()).then(d => msg.textContent = 'page2 ' + d.length), 200)">More</button>
<button onclick="for (let i = 0; i < 40; i++) fetch('/api/items?n=' + i); msg.textContent = 'burst'">Burst</button>
<button onclick="setTimeout(() => document.getElementById('csv').click(), 200)">Prepare export</button>
<a id="csv" href="/export.csv">Export</a>
<script>
function load() {
  return fetch('/api/items').then(r => r.json()).then(items => {
    list.innerHTML = items.map(i => '<li>' + i.name + '</li>').join('');
    msg.textContent = items.length + ' items';
  });
}
load();
fetch('/api/missing');
</script>
<script src="/broken.js"></script>`

func serveShop(t *testing.T) *shop {
	t.Helper()
	s := &shop{hits: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(shopHTML))
	})
	mux.HandleFunc("/broken.js", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	mux.HandleFunc("/api/items", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"name":"Kettle"},{"name":"Teapot"}]`))
	})
	mux.HandleFunc("/api/track", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/export.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Write([]byte("id,name\n1,Kettle\n"))
	})
	s.base = strings.TrimSuffix(browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	})), "/")
	return s
}

// openShopTab opens the shop in a tab closed at the end of the test and
// returns its alias.
func openShopTab(t *testing.T, s *shop) string {
	t.Helper()
	out := runJSON(t, `{"steps":[{"openTab":"`+s.base+`/"},{"wait":{"text":"2 items"}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	return out.Tab
}

// TestAnswerListsFailedRequestsAndNetworkStep loads the shop, whose page
// requests a missing API and a script that errors: the answer lists both
// under failedRequests (not the favicon, and not again in console), and
// the network step lists the requests with filters.
func TestAnswerListsFailedRequestsAndNetworkStep(t *testing.T) {
	s := serveShop(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+s.base+`/"},{"wait":{"text":"2 items"}},
		{"waitForResponse":"/api/missing"},{"waitForResponse":"/broken.js"},{"network":{"url":"/api/"}},{"network":{"failed":true,"type":["script","fetch"]}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	failed := jsonString(out.FailedReqs)
	mustContain(t, failed, `/broken.js","type":"script","status":500`, `/api/missing","type":"fetch","status":404`)
	if strings.Contains(failed, "favicon") {
		t.Errorf("favicon noise in failedRequests: %s", failed)
	}
	if strings.Contains(jsonString(out.Console), "/api/missing") {
		t.Errorf("the failed request is reported twice (console too): %s", jsonString(out.Console))
	}
	api := stepOutput(t, out, 4)
	if api["count"] != 2.0 {
		t.Errorf("network url /api/: %s", jsonString(api))
	}
	mustContain(t, jsonString(api["requests"]), `"method":"GET"`, `"status":200`, `"type":"fetch"`)
	bad := stepOutput(t, out, 5)
	if bad["count"] != 2.0 {
		t.Errorf("network failed: %s", jsonString(bad))
	}
	// A burst of 40 calls: the list goes to a file, the answer keeps the
	// last few.
	out = runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":{"text":"Burst"}},{"waitForResponse":"n=39"},{"network":{"url":"n="}}]}`)
	mustOK(t, out)
	burst := stepOutput(t, out, 2)
	file, _ := burst["file"].(string)
	data, err := os.ReadFile(file)
	var all []map[string]any
	json.Unmarshal(data, &all)
	if burst["count"] != 40.0 || err != nil || len(all) != 40 || len(burst["requests"].([]any)) != 30 {
		t.Errorf("a long list: %s (file: %d entries, %v)", jsonString(burst), len(all), err)
	}
	if len(out.FailedReqs) != 0 {
		t.Errorf("this command's failures only, got %s", jsonString(out.FailedReqs))
	}
}

// TestRouteMocksAndBlocksForTheCommandOnly mocks the product API and
// blocks tracking: the page renders the mocked products, the server sees
// neither request; the next command has no routes.
func TestRouteMocksAndBlocksForTheCommandOnly(t *testing.T) {
	s := serveShop(t)
	tab := openShopTab(t, s)
	before := s.count("/api/items")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[
		{"route":{"url":"/api/items","fulfill":{"json":[{"name":"Mocked mug"}]}}},
		{"route":{"url":"/api/track","abort":true}},
		{"click":{"text":"Reload"}},{"wait":{"text":"1 items"}},
		{"click":{"text":"Track"}},{"wait":{"text":"track failed"}},
		{"extract":{"selector":"#list"}}]}`)
	mustOK(t, out)
	mustContain(t, jsonString(out.Steps[6].Output), "Mocked mug")
	if s.count("/api/items") != before || s.count("/api/track") != 0 {
		t.Errorf("routed requests reached the server: items %d→%d, track %d", before, s.count("/api/items"), s.count("/api/track"))
	}
	if len(out.FailedReqs) != 0 {
		t.Errorf("a request the agent blocked is not a failure: %s", jsonString(out.FailedReqs))
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Reload"}},{"wait":{"text":"2 items"}},{"click":{"text":"Track"}},{"wait":{"text":"tracked"}}]}`)
	mustOK(t, out)
	if s.count("/api/items") != before+1 || s.count("/api/track") != 1 {
		t.Errorf("routes outlived their command: items %d, track %d", s.count("/api/items")-before, s.count("/api/track"))
	}
	for _, bad := range []string{
		`{"route":{"url":"x"}}`,
		`{"route":{"url":"x","abort":true,"fulfill":{"body":"y"}}}`,
		`{"route":{"url":"x","fulfill":{"status":999}}}`,
		`{"route":{"url":"x","abort":"Nope"}}`,
		`{"route":{"url":"x","fulfill":{"file":"/etc/passwd"}}}`,
		`{"route":{"url":"x","handler":"js"}}`,
	} {
		out := runJSON(t, `{"tab":"`+tab+`","steps":[`+bad+`]}`)
		refusedFirst := out.Error != nil && out.Error.Type == TypeValidation && len(out.Steps) == 0
		if !refusedFirst && (out.OK() || len(out.Steps) != 1 || out.Steps[0].ErrorType != "StepValidationError") {
			t.Errorf("%s: want a validation error, got %s", bad, out.JSON())
		}
	}
}

// TestRouteHandlerDecidesInRecipes lets a recipe function decide per
// request: it fulfils the POST and lets the GET through; a handler that
// calls an action is refused and the request goes on, with a warning.
func TestRouteHandlerDecidesInRecipes(t *testing.T) {
	s := serveShop(t)
	tab := openShopTab(t, s)
	src := `
def decide(req):
    if req.method == "POST":
        return {"status": 204}
    return None

def bad(req):
    click(text = "Reload")

route(url = "/api/", type = "fetch", handler = decide)
click(text = "Track")
wait(text = "tracked")
click(text = "Reload")
wait(text = "2 items")
route(url = "/api/items", handler = bad)
click(text = "Reload")
wait(text = "2 items")
`
	before := s.count("/api/items")
	out := runRecipe(t, Program{Tab: tab, Source: []byte(src)})
	mustOK(t, out)
	if s.count("/api/track") != 0 || s.count("/api/items") != before+2 {
		t.Errorf("track %d (want 0), items %d (want 2)", s.count("/api/track"), s.count("/api/items")-before)
	}
	mustContain(t, strings.Join(out.Warnings, "\n"), "route handler failed", "cannot run inside a hook")
}

// TestHarStepRecordsTheCommand records a command's traffic: the file has
// the requests of every step, before and after the har step.
func TestHarStepRecordsTheCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	s := serveShop(t)
	tab := openShopTab(t, s)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Track"}},{"wait":{"text":"tracked"}},{"har":"logs/shop"},{"click":{"text":"Reload"}},{"waitForResponse":"/api/items"}]}`)
	mustOK(t, out)
	path := filepath.Join(dir, "logs", "shop.har")
	if got := stepOutput(t, out, 2)["recording"]; got != path {
		t.Errorf("har output: %v", got)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(data), `"version": "1.2"`, `/api/track"`, `/api/items"`)
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"har":"../escape.har"}]}`)
	if out.OK() || !strings.Contains(out.Steps[0].Error, "outside the output directory") {
		t.Errorf("a path outside the output dir: %s", out.JSON())
	}
}

// TestWaitForResponseStep waits for the response a click causes a moment
// later and returns its status and body.
func TestWaitForResponseStep(t *testing.T) {
	s := serveShop(t)
	tab := openShopTab(t, s)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"More"}},{"waitForResponse":{"url":"page=2","body":true}}]}`)
	mustOK(t, out)
	got := stepOutput(t, out, 1)
	if got["status"] != 200.0 || got["body"] != `[{"name":"Kettle"},{"name":"Teapot"}]` {
		t.Errorf("waitForResponse: %s", jsonString(got))
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"waitForResponse":{"url":"/never","timeout":800}}]}`)
	if out.OK() || out.Steps[0].ErrorType != "TimeoutError" {
		t.Errorf("a response that never comes: %s", out.JSON())
	}
}

// TestDownloadsReportedOnTheStep clicks a download link and a button
// whose timer starts one (each step reports the saved file), and lets the
// page start one later (waitForDownload returns it); all land in the
// output directory, numbered rather than replaced.
func TestDownloadsReportedOnTheStep(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	t.Setenv("CDP_SKILL_DOWNLOADS", "allow")
	s := serveShop(t)
	tab := openShopTab(t, s)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Export"}},{"click":{"text":"Prepare export"}},
		{"pageFunction":"setTimeout(() => document.getElementById('csv').click(), 1000), 1"},{"waitForDownload":true}]}`)
	mustOK(t, out)
	first := filepath.Join(dir, "downloads", "report.csv")
	want := fmt.Sprintf(`{"suggestedFilename":"report.csv","path":%q,"size":17}`, first)
	if got := jsonString(out.Steps[0].Download); got != want {
		t.Errorf("the click's download: %s, want %s", got, want)
	}
	// The button's timer starts the download while the click settles.
	if got := jsonString(out.Steps[1].Download); !strings.Contains(got, `report (1).csv","size":17`) {
		t.Errorf("the timer's download belongs to its click: %s", got)
	}
	if out.Steps[2].Download != nil {
		t.Errorf("the page function began no download yet: %s", jsonString(out.Steps[2].Download))
	}
	third := stepOutput(t, out, 3)
	if third["path"] != filepath.Join(dir, "downloads", "report (2).csv") || third["size"] != 17.0 {
		t.Errorf("waitForDownload: %s", jsonString(third))
	}
	if out.Navigated || s.count("/export.csv") != 3 {
		t.Errorf("navigated %v, server sent %d files: %s", out.Navigated, s.count("/export.csv"), out.JSON())
	}
	if data, err := os.ReadFile(first); err != nil || string(data) != "id,name\n1,Kettle\n" {
		t.Errorf("the saved file: %q %v", data, err)
	}
}

// TestGotoADownloadURL navigates to a file the server sends as an
// attachment: the step succeeds, reports the download, and the tab stays
// on its page.
func TestGotoADownloadURL(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	t.Setenv("CDP_SKILL_DOWNLOADS", "allow")
	s := serveShop(t)
	tab := openShopTab(t, s)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"goto":"`+s.base+`/export.csv"}]}`)
	mustOK(t, out)
	if got := jsonString(out.Steps[0].Download); !strings.Contains(got, `"path":"`+filepath.Join(dir, "downloads", "report.csv")+`","size":17`) {
		t.Errorf("goto a download: %s", out.JSON())
	}
	if out.Context == nil || out.Context.URL != s.base+"/" {
		t.Errorf("the tab should stay on its page: %s", out.JSON())
	}
}

// TestRouteFulfillsFromAFile answers the product API with a file from an
// allowed directory (its type from the extension).
func TestRouteFulfillsFromAFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_UPLOAD_DIRS", dir)
	file := filepath.Join(dir, "items.json")
	os.WriteFile(file, []byte(`[{"name":"From file"},{"name":"B"},{"name":"C"}]`), 0o644)
	s := serveShop(t)
	tab := openShopTab(t, s)
	before := s.count("/api/items")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"route":{"url":"/api/items","fulfill":{"file":"`+file+`"}}},
		{"click":{"text":"Reload"}},{"wait":{"text":"3 items"}},{"extract":{"selector":"#list"}}]}`)
	mustOK(t, out)
	mustContain(t, jsonString(out.Steps[3].Output), "From file")
	if s.count("/api/items") != before {
		t.Error("the request answered from a file reached the server")
	}
}

// TestDownloadsAreTheCommandsOwn: on a connection kept between commands
// (the resident process's), an answer lists the downloads its own steps
// began, not those of earlier commands on the tab.
func TestDownloadsAreTheCommandsOwn(t *testing.T) {
	o := testOptions(t)
	o.Pool = NewPool()
	defer o.Pool.Close()
	s := serveShop(t)
	ctx := context.Background()
	_, open := RunJSON(ctx, []byte(`{"steps":[{"openTab":"`+s.base+`/"},{"wait":{"text":"2 items"}}]}`), o)
	mustOK(t, open)
	open.Finish()
	defer RunJSON(ctx, []byte(`{"steps":[{"closeTab":"`+open.Tab+`"}]}`), o)
	_, first := RunJSON(ctx, []byte(`{"tab":"`+open.Tab+`","capture":"none","steps":[{"click":{"text":"Export"}}]}`), o)
	mustOK(t, first)
	first.Finish()
	if len(first.Downloads) != 1 || first.Downloads[0].State != "denied" {
		t.Fatalf("the command that began the download: %s", first.JSON())
	}
	_, next := RunJSON(ctx, []byte(`{"tab":"`+open.Tab+`","capture":"none","steps":[{"pageFunction":"() => document.title"}]}`), o)
	mustOK(t, next)
	next.Finish()
	if len(next.Downloads) != 0 {
		t.Errorf("a later command lists the earlier download: %s", next.JSON())
	}
}
