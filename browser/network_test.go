package browser

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/traffic"
)

// shopServer is a small storefront: a page whose script loads the product
// list from an API and whose buttons call other endpoints. It records
// every request it receives (path and headers).
type shopServer struct {
	base string
	mu   sync.Mutex
	seen []*http.Request
}

func (s *shopServer) saw(path string) []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*http.Request
	for _, r := range s.seen {
		if r.URL.Path == path {
			out = append(out, r)
		}
	}
	return out
}

const shopPage = `<!doctype html><title>Shop</title>
<h1>Products</h1><ul id="list"></ul><p id="msg">loading</p>
<button id="reload" onclick="load()">Reload</button>
<button id="track" onclick="fetch('/api/track', {method: 'POST', body: 'x'}).then(() => msg.textContent = 'tracked', e => msg.textContent = 'track failed')">Track</button>
<button id="missing" onclick="fetch('/api/missing').then(r => msg.textContent = 'missing ' + r.status)">Missing</button>
<button id="secret" onclick="fetch('/api/me', {headers: {Authorization: 'Bearer s3cr3t-token'}}).then(r => r.text()).then(t => msg.textContent = t)">Me</button>
<button id="slow" onclick="setTimeout(() => fetch('/api/items?page=2').then(r => r.json()).then(d => msg.textContent = 'page2 ' + d.length), 300)">More</button>
<a id="csv" href="/export.csv">Export</a>
<a id="evil" href="/evil">Evil</a>
<script src="/app.js"></script>
<script src="/broken.js"></script>`

const shopJS = `function load() {
  return fetch('/api/items').then(r => r.json()).then(items => {
    list.innerHTML = items.map(i => '<li>' + i.name + '</li>').join('');
    msg.textContent = items.length + ' items';
  }, e => { msg.textContent = 'error ' + e.message; });
}
load();`

func serveShop(t *testing.T) *shopServer {
	t.Helper()
	s := &shopServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(shopPage))
	})
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(shopJS))
	})
	mux.HandleFunc("/broken.js", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	mux.HandleFunc("/api/items", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"name":"Kettle"},{"name":"Teapot"}]`))
	})
	mux.HandleFunc("/api/track", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/api/me", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "cookie-value-42"})
		w.Write([]byte("me:" + r.Header.Get("X-Test")))
	})
	mux.HandleFunc("/export.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Write([]byte("id,name\n1,Kettle\n"))
	})
	mux.HandleFunc("/evil", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="..\..\.bashrc"`)
		w.Write([]byte("echo owned\n"))
	})
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Clone(context.Background()))
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	s.base = strings.TrimSuffix(base, "/")
	return s
}

// openShop opens the shop and waits until its script listed the products.
func openShop(t *testing.T) (*Page, *shopServer) {
	t.Helper()
	return openShopWith(t, ConnectOptions{})
}

// openShopWith is openShop over a connection made with opts.
func openShopWith(t *testing.T, opts ConnectOptions) (*Page, *shopServer) {
	t.Helper()
	s := serveShop(t)
	p := openTestTabWith(t, opts)
	if _, err := p.Navigate(testCtx(t), s.base+"/", WaitLoad); err != nil {
		t.Fatal(err)
	}
	waitText(t, p, "#msg", "2 items")
	return p, s
}

// waitText polls until the element's text is want.
func waitText(t *testing.T, p *Page, sel, want string) {
	t.Helper()
	ctx := testCtx(t)
	var got string
	for ctx.Err() == nil {
		p.CallInto(ctx, &got, `s => (document.querySelector(s) || {}).textContent || ''`, sel)
		if got == want {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: want %q, got %q", sel, want, got)
}

func clickSel(t *testing.T, p *Page, sel string) *ClickResult {
	t.Helper()
	res, err := p.Click(testCtx(t), Target{Selector: sel}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// eventually polls the network log until ok holds for the requests that
// match f (the page may finish before its events are read) and returns
// the last list read.
func eventually(t *testing.T, p *Page, f NetworkFilter, ok func([]Request) bool) []Request {
	t.Helper()
	ctx := testCtx(t)
	for {
		reqs, err := p.Network().Requests(testCtx(t), f)
		if err != nil {
			t.Fatal(err)
		}
		if ok(reqs) || ctx.Err() != nil {
			return reqs
		}
		select {
		case <-p.net.Changed():
		case <-ctx.Done():
		}
	}
}

// withoutFavicon drops the browser's own favicon request (it may or may
// not have happened yet).
func withoutFavicon(reqs []Request) []Request {
	var out []Request
	for _, r := range reqs {
		if !traffic.IsFavicon(r.URL) {
			out = append(out, r)
		}
	}
	return out
}

func findReq(reqs []Request, path string) *Request {
	for i := range reqs {
		if strings.HasSuffix(strings.SplitN(reqs[i].URL, "?", 2)[0], path) {
			return &reqs[i]
		}
	}
	return nil
}

// TestNetworkLogRecordsTheTabsRequests loads a page whose script calls an
// API, then clicks buttons that call more: every request is listed with
// method, status, type, size and time, and the filters narrow the list.
func TestNetworkLogRecordsTheTabsRequests(t *testing.T) {
	p, _ := openShop(t)
	clickSel(t, p, "#missing")
	waitText(t, p, "#msg", "missing 404")
	all := eventually(t, p, NetworkFilter{}, func(r []Request) bool {
		m := findReq(r, "/api/missing")
		return m != nil && !m.Pending
	})
	doc, items, broken, missing := findReq(all, "/"), findReq(all, "/api/items"), findReq(all, "/broken.js"), findReq(all, "/api/missing")
	if doc == nil || items == nil || broken == nil || missing == nil {
		t.Fatalf("requests missing from the log: %+v", all)
	}
	if doc.Type != "document" || doc.Status != 200 || doc.Method != "GET" || doc.Size == 0 {
		t.Errorf("document: %+v", doc)
	}
	if items.Type != "fetch" || items.Status != 200 || items.Size == 0 || items.Pending {
		t.Errorf("api call: %+v", items)
	}
	if broken.Type != "script" || broken.Status != 500 || missing.Status != 404 {
		t.Errorf("failures: %+v %+v", broken, missing)
	}
	failed, _ := p.Network().Requests(testCtx(t), NetworkFilter{Failed: true})
	failed = withoutFavicon(failed)
	if len(failed) != 2 || findReq(failed, "/broken.js") == nil || findReq(failed, "/api/missing") == nil {
		t.Errorf("failed only: want broken.js and /api/missing, got %+v", failed)
	}
	for _, tc := range []struct {
		f    NetworkFilter
		want []string
	}{
		{NetworkFilter{URL: "/api/"}, []string{"/api/items", "/api/missing"}},
		{NetworkFilter{URL: "*/api/*s"}, []string{"/api/items"}},
		{NetworkFilter{URLRegex: `\.js$`}, []string{"/app.js", "/broken.js"}},
		{NetworkFilter{Types: []string{"script"}}, []string{"/app.js", "/broken.js"}},
		{NetworkFilter{Status: "4xx"}, []string{"/api/missing"}},
		{NetworkFilter{Status: "500"}, []string{"/broken.js"}},
	} {
		got, err := p.Network().Requests(testCtx(t), tc.f)
		if err != nil {
			t.Fatal(err)
		}
		got = withoutFavicon(got)
		var paths []string
		for _, r := range got {
			paths = append(paths, r.URL)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%+v: want %v, got %v", tc.f, tc.want, paths)
			continue
		}
		for _, w := range tc.want {
			if findReq(got, w) == nil {
				t.Errorf("%+v: want %v, got %v", tc.f, tc.want, paths)
			}
		}
	}
	if _, err := p.Network().Requests(testCtx(t), NetworkFilter{URLRegex: "(("}); KindOf(err) != KindStepValidation {
		t.Errorf("a bad regex: want a validation error, got %v", err)
	}
	if _, err := p.Network().Requests(testCtx(t), NetworkFilter{Types: []string{"js"}}); KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "script") {
		t.Errorf("an unknown type: want a validation error listing the types, got %v", err)
	}
	if _, err := p.Network().Requests(testCtx(t), NetworkFilter{Status: "6xx"}); KindOf(err) != KindStepValidation {
		t.Errorf("a bad status: want a validation error, got %v", err)
	}
	p.Network().Clear()
	if got, _ := p.Network().Requests(testCtx(t), NetworkFilter{}); len(got) != 0 {
		t.Errorf("after clear: %+v", got)
	}
}

// TestNetworkLogReportsConnectionFailures fetches from a port nothing
// listens on: the request is listed with its network error and counts as
// failed.
func TestNetworkLogReportsConnectionFailures(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/gone"
	l.Close()
	p, _ := openShop(t)
	var ok bool
	p.CallInto(testCtx(t), &ok, `u => fetch(u).then(() => true, () => true)`, dead)
	reqs := eventually(t, p, NetworkFilter{URL: "/gone"}, func(r []Request) bool { return len(r) == 1 && !r[0].Pending })
	if len(reqs) != 1 || !strings.Contains(reqs[0].Failure, "ERR_CONNECTION_REFUSED") || !reqs[0].Failed() {
		t.Fatalf("a refused connection: %+v", reqs)
	}
	failed := p.Network().Failed(testCtx(t), time.Time{})
	if findReq(failed, "/gone") == nil {
		t.Errorf("the refused fetch is not among the failed requests: %+v", failed)
	}
}

// TestFailedRequestsLeaveOutBrowserNoise lists the page's failed document,
// script and fetch requests, but not the favicon the browser asks for on
// its own nor an image.
func TestFailedRequestsLeaveOutBrowserNoise(t *testing.T) {
	p, s := openShop(t)
	var ok bool
	p.CallInto(testCtx(t), &ok, `() => new Promise(r => { const i = new Image(); i.onerror = () => r(true); i.src = '/nope.png'; document.body.append(i); })`)
	p.CallInto(testCtx(t), &ok, `() => fetch('/favicon.ico').then(() => true)`)
	// Wait until the log has both ended, so their absence below means
	// something.
	eventually(t, p, NetworkFilter{URLRegex: `nope\.png|favicon\.ico`, Failed: true}, func(r []Request) bool {
		png, ico := false, false
		for _, x := range r {
			png = png || strings.HasSuffix(x.URL, ".png") && !x.Pending
			ico = ico || traffic.IsFavicon(x.URL) && !x.Pending
		}
		return png && ico
	})
	failed := p.Network().Failed(testCtx(t), time.Time{})
	if findReq(failed, "/broken.js") == nil {
		t.Errorf("the broken script is not reported: %+v", failed)
	}
	for _, r := range failed {
		if strings.HasSuffix(r.URL, "favicon.ico") || strings.HasSuffix(r.URL, ".png") {
			t.Errorf("noise reported: %+v", r)
		}
	}
	if len(s.saw("/nope.png")) == 0 {
		t.Fatal("the fixture's image request never reached the server")
	}
}

// TestWaitForResponseReturnsStatusAndBody clicks a button whose handler
// fetches after a delay: the wait returns the response with its body cut
// to the limit; a response is returned once; a pattern nothing matches
// times out naming the requests seen.
func TestWaitForResponseReturnsStatusAndBody(t *testing.T) {
	p, _ := openShop(t)
	since := time.Now()
	clickSel(t, p, "#slow")
	res, err := p.Network().WaitForResponse(testCtx(t), ResponseWait{URL: "/api/items?page=2", Since: since, Body: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != 200 || res.Body != `[{"name":"…` || !res.BodyTruncated || res.BodyBytes != 37 {
		t.Errorf("the response: %+v", res)
	}
	waitText(t, p, "#msg", "page2 2")
	// The page's first load of /api/items happened before since.
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	_, err = p.Network().WaitForResponse(ctx, ResponseWait{URL: "/api/items", Since: since})
	if err == nil {
		// page=2 was returned already; nothing else matched.
		t.Fatal("a response returned twice")
	}
	if KindOf(err) != KindTimeout || !strings.Contains(err.Error(), "/api/items?page=2") {
		t.Errorf("the timeout should name the requests seen: %v", err)
	}
	clickSel(t, p, "#reload")
	res, err = p.Network().WaitForResponse(testCtx(t), ResponseWait{URLRegex: `/api/items$`, Since: since, Body: 4000, Status: "2xx"})
	if err != nil || res.Body != `[{"name":"Kettle"},{"name":"Teapot"}]` || res.BodyTruncated {
		t.Fatalf("the reload's response: %+v %v", res, err)
	}
}

// TestRouteFulfillsAbortsAndChangesRequests mocks the product API (the
// page renders the mocked body and the server never sees the request),
// blocks the tracking call (the server never sees it, the page sees a
// failure), adds a header to another call (the server sees it), and after
// ClearRoutes requests reach the server again.
func TestRouteFulfillsAbortsAndChangesRequests(t *testing.T) {
	p, s := openShop(t)
	before := len(s.saw("/api/items"))
	ctx := testCtx(t)
	m, _ := NewURLMatcher("/api/items", "")
	if err := p.Network().AddRoute(ctx, &Route{Match: m, Decision: RouteDecision{Action: RouteFulfill, Status: 200,
		Headers: map[string]string{"Content-Type": "application/json"}, Body: []byte(`[{"name":"Mocked mug"}]`)}}); err != nil {
		t.Fatal(err)
	}
	track, _ := NewURLMatcher("/api/track", "")
	p.Network().AddRoute(ctx, &Route{Match: track, Decision: RouteDecision{Action: RouteAbort, Reason: "BlockedByClient"}})
	me, _ := NewURLMatcher("*/api/me", "")
	p.Network().AddRoute(ctx, &Route{Match: me, Decision: RouteDecision{Action: RouteContinue, Headers: map[string]string{"X-Test": "routed"}}})

	clickSel(t, p, "#reload")
	waitText(t, p, "#msg", "1 items")
	waitText(t, p, "#list", "Mocked mug")
	if n := len(s.saw("/api/items")); n != before {
		t.Errorf("the mocked request reached the server (%d times)", n-before)
	}
	clickSel(t, p, "#track")
	waitText(t, p, "#msg", "track failed")
	if n := len(s.saw("/api/track")); n != 0 {
		t.Errorf("the blocked request reached the server %d times", n)
	}
	clickSel(t, p, "#secret")
	waitText(t, p, "#msg", "me:routed")
	if got := s.saw("/api/me"); len(got) != 1 || got[0].Header.Get("Authorization") != "Bearer s3cr3t-token" {
		t.Errorf("the continued request lost its own headers: %v", got)
	}
	reqs := eventually(t, p, NetworkFilter{URL: "/api/"}, func(r []Request) bool {
		m := findReq(r, "/api/me")
		return m != nil && !m.Pending
	})
	routed := map[string]string{}
	for _, r := range reqs {
		routed[r.URL[strings.Index(r.URL, "/api"):]] = r.Routed
	}
	if routed["/api/items"] != RouteFulfill || routed["/api/track"] != RouteAbort || routed["/api/me"] != RouteContinue {
		t.Errorf("the log should say what the routes did: %v", routed)
	}
	if f := p.Network().Failed(testCtx(t), time.Time{}); findReq(f, "/api/track") != nil {
		t.Errorf("a request a route blocked is reported as a failure: %+v", f)
	}
	p.Network().ClearRoutes(ctx)
	clickSel(t, p, "#reload")
	waitText(t, p, "#msg", "2 items")
	if n := len(s.saw("/api/items")); n != before+1 {
		t.Errorf("after ClearRoutes the request should reach the server once, got %d", n-before)
	}
}

// TestRouteDecideAndTimes lets a function decide per request and limits
// a route to its first match.
func TestRouteDecideAndTimes(t *testing.T) {
	p, s := openShop(t)
	ctx := testCtx(t)
	var asked []string
	var mu sync.Mutex
	all, _ := NewURLMatcher("", "")
	p.Network().AddRoute(ctx, &Route{Match: all, Types: []string{"fetch"}, Decide: func(_ context.Context, r RouteRequest) (*RouteDecision, error) {
		mu.Lock()
		asked = append(asked, r.Method+" "+r.URL[strings.Index(r.URL, "/api"):])
		mu.Unlock()
		if r.Method == "POST" {
			return &RouteDecision{Action: RouteFulfill, Status: 201}, nil
		}
		return nil, nil
	}})

	items, _ := NewURLMatcher("/api/items", "")
	p.Network().AddRoute(ctx, &Route{Match: items, Times: 1, Decision: RouteDecision{Action: RouteFulfill, Body: []byte(`[]`)}})
	clickSel(t, p, "#reload")
	waitText(t, p, "#msg", "0 items")
	clickSel(t, p, "#reload")
	waitText(t, p, "#msg", "2 items")
	clickSel(t, p, "#track")
	waitText(t, p, "#msg", "tracked")
	if len(s.saw("/api/track")) != 0 {
		t.Error("the POST the function fulfilled reached the server")
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(asked, ",") != "GET /api/items,POST /api/track" {
		t.Errorf("the function saw %v (the first reload belongs to the times:1 route)", asked)
	}
}

// TestHARRecordsTrafficWithSecretsRedacted writes the shop's traffic to a
// HAR file: valid HAR 1.2 with the API calls; the Authorization header and
// the Set-Cookie value are redacted unless secrets are asked for.
func TestHARRecordsTrafficWithSecretsRedacted(t *testing.T) {
	p, _ := openShop(t)
	clickSel(t, p, "#secret")
	waitText(t, p, "#msg", "me:")
	dir := t.TempDir()
	res, err := p.Network().WriteHAR(testCtx(t), HARRequest{Path: "shop", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "shop.har"))
	if err != nil || res.Path != filepath.Join(dir, "shop.har") {
		t.Fatalf("%v %+v", err, res)
	}
	var har struct {
		Log struct {
			Version string
			Entries []struct {
				Request struct {
					Method, URL string
					Headers     []struct{ Name, Value string }
				}
				Response struct {
					Status  int
					Headers []struct{ Name, Value string }
				}
			}
		}
	}
	if err := json.Unmarshal(data, &har); err != nil {
		t.Fatal(err)
	}
	if har.Log.Version != "1.2" || len(har.Log.Entries) < 5 || res.Entries != len(har.Log.Entries) {
		t.Fatalf("HAR: version %q, %d entries", har.Log.Version, len(har.Log.Entries))
	}
	found := false
	for _, e := range har.Log.Entries {
		if strings.HasSuffix(e.Request.URL, "/api/me") {
			found = e.Response.Status == 200
		}
	}
	if !found {
		t.Error("the /api/me call is not in the HAR")
	}
	if strings.Contains(string(data), "s3cr3t-token") || strings.Contains(string(data), "cookie-value-42") || res.Redacted < 2 {
		t.Errorf("secrets leaked into the HAR (%d redacted)", res.Redacted)
	}
	res, err = p.Network().WriteHAR(testCtx(t), HARRequest{Path: "raw.har", Dir: dir, Secrets: true})
	data, _ = os.ReadFile(filepath.Join(dir, "raw.har"))
	if err != nil || !strings.Contains(string(data), "s3cr3t-token") || !strings.Contains(string(data), `"name": "sid",`) || !strings.Contains(string(data), "cookie-value-42") {
		t.Errorf("secrets: true should keep the token and the cookie: %v", err)
	}
	for _, bad := range []string{"../out.har", "/etc/x.har", ".git/x.har", "x.txt"} {
		if _, err := p.Network().WriteHAR(testCtx(t), HARRequest{Path: bad, Dir: dir}); KindOf(err) != KindStepValidation {
			t.Errorf("path %q: want a refusal, got %v", bad, err)
		}
	}
}
