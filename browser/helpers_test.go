package browser

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// openTestTab opens a fresh tab on the test Chromium; it closes at cleanup.
func openTestTab(t testing.TB) *Page {
	t.Helper()
	return openTestTabWith(t, ConnectOptions{})
}

// openTestTabWith is openTestTab over a connection made with opts.
func openTestTabWith(t testing.TB, opts ConnectOptions) *Page {
	t.Helper()
	c := browsertest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := Connect(ctx, c.Endpoint, opts)
	if err != nil {
		t.Fatal(err)
	}
	id, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Attach(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.CloseTab(context.Background(), id)
		b.Close()
	})
	return p
}

// useStateDir makes dir the state directory until the test ends.
func useStateDir(t testing.TB, dir string) {
	previous := state.SetDir(dir)
	t.Cleanup(func() { state.SetDir(previous) })
}

// servePages serves fixed HTML documents by path on loopback.
func servePages(t testing.TB, pages map[string]string) string {
	t.Helper()
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writePage(w, r, pages)
	}))
}

// writePage answers r with the HTML document pages holds for its path
// (without the leading slash), or 404.
func writePage(w http.ResponseWriter, r *http.Request, pages map[string]string) {
	body, ok := pages[strings.TrimPrefix(r.URL.Path, "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(body))
}

// loadHTML opens html in a fresh tab (served over HTTP from loopback).
func loadHTML(t testing.TB, html string) *Page {
	t.Helper()
	base := servePages(t, map[string]string{"page.html": html})
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"page.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p
}

// testCtx is a test's context: 30 s, and the test's step, which
// Frames.Switch moves into a frame for the calls after it, as the frame
// step does for the rest of a command. Every testCtx of a test (and of its
// subtests) shares the one step.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(testStep(t), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

var testSteps sync.Map // top-level test name → context.Context

// testStep is the context holding the step of t's top-level test.
func testStep(t testing.TB) context.Context {
	name, _, _ := strings.Cut(t.Name(), "/")
	if ctx, ok := testSteps.Load(name); ok {
		return ctx.(context.Context)
	}
	ctx, loaded := testSteps.LoadOrStore(name, inFrame(context.Background(), nil))
	if !loaded {
		t.Cleanup(func() { testSteps.Delete(name) })
	}
	return ctx.(context.Context)
}

func targetIDOf(s string) target.ID { return target.ID(s) }

// scopeStep makes the test's calls until restore one step, as a runtime
// step is: a call on a target in another frame moves the test's step
// there, and restore brings it back to where it was.
func scopeStep(ctx context.Context) (restore func()) {
	s := stepFrameOf(ctx)
	s.mu.Lock()
	f, home := s.frame, s.home
	s.home = f
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.frame, s.home = f, home
		s.mu.Unlock()
	}
}
