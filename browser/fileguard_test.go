package browser

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pollUntil checks cond every 20 ms until it holds, failing the test when
// it does not within 15 s.
func pollUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fileConfineDir is the hostile fixture: allowed/index.html tries to show
// ../secret.html, a file outside the directory it was allowed from.
func fileConfineDir(t *testing.T) (allowed, secret string) {
	t.Helper()
	root, err := filepath.Abs("testdata/fileconfine")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "allowed"), filepath.Join(root, "secret.html")
}

// TestFilePolicyHoldsForFramesAndPageNavigations (issue 31, item 3): a
// page inside the allowed directory shows its own frame but none of the
// file outside it, through a frame in its HTML, a frame added by script,
// location.href, or a link; each refused load is noted.
func TestFilePolicyHoldsForFramesAndPageNavigations(t *testing.T) {
	allowed, secret := fileConfineDir(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	p.SetURLPolicy(URLPolicy{FileDirs: []string{allowed}})
	if _, err := p.Navigate(ctx, "file://"+allowed+"/index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string) string {
		t.Helper()
		raw, err := p.Eval(ctx, expr)
		reads := !strings.Contains(expr, "click()") && !strings.Contains(expr, "location.href =")
		for i := 0; reads && i < 20 && KindOf(err) == KindContextDestroyed; i++ {
			// The page is between documents (the refused navigation's
			// error page commits): read the one that is there next.
			time.Sleep(50 * time.Millisecond)
			raw, err = p.Eval(ctx, expr)
		}
		if !reads && KindOf(err) == KindContextDestroyed {
			return "" // the move navigated while it was evaluated
		}
		if err != nil {
			t.Fatal(err)
		}
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	// The late frame is added on load: wait until it finished loading.
	pollUntil(t, "the late frame loads", func() bool { return eval(`document.body.dataset.late || ''`) == "loaded" })
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.YAML, "TOP-SECRET") {
		t.Fatalf("the snapshot shows the local file outside the allowed directory:\n%s", s.YAML)
	}
	if !strings.Contains(s.YAML, "A frame from the allowed directory") {
		t.Errorf("the page's own frame is not shown:\n%s", s.YAML)
	}
	notes := strings.Join(p.TakeRefusedLoads(), "\n")
	if !strings.Contains(notes, secret) || !strings.Contains(notes, FileDirsEnv) {
		t.Errorf("the refused frames are not noted: %q", notes)
	}
	for _, move := range []string{`document.getElementById('go').click()`, `document.getElementById('link').click()`, `location.href = 'file://` + secret + `'`} {
		eval(move + `; ''`)
		// The refused navigation ends on Chrome's error page; a load that
		// went through would show the secret.
		pollUntil(t, move+" leaves the page", func() bool { return !strings.HasSuffix(eval(`location.href`), "/index.html") })
		if body := eval(`document.body ? document.body.innerText : ''`); strings.Contains(body, "TOP-SECRET") {
			t.Fatalf("%s showed the secret file: %q", move, body)
		}
		if notes := p.TakeRefusedLoads(); len(notes) == 0 {
			t.Errorf("%s: the refusal is not noted", move)
		}
		if _, err := p.Navigate(ctx, "file://"+allowed+"/index.html", WaitLoad); err != nil {
			t.Fatal(err)
		}
		p.TakeRefusedLoads()
	}
}

// TestFileGuardHoldsWithAndAfterRoutes: routes share the Fetch domain
// with the file guard; while a route intercepts everything, and after it
// is cleared, a local file outside the allowed directory stays refused,
// and the route still answers the requests it matches.
func TestFileGuardHoldsWithAndAfterRoutes(t *testing.T) {
	allowed, _ := fileConfineDir(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	p.SetURLPolicy(URLPolicy{FileDirs: []string{allowed}})
	if _, err := p.Navigate(ctx, "file://"+allowed+"/index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	m, err := NewURLMatcher("**/frame.html", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Network().AddRoute(ctx, &Route{Match: m, Decision: RouteDecision{Action: RouteFulfill, Body: []byte("<p>ROUTED</p>")}}); err != nil {
		t.Fatal(err)
	}
	check := func(stage string, wantRouted bool) {
		t.Helper()
		if _, err := p.Navigate(ctx, "file://"+allowed+"/index.html", WaitLoad); err != nil {
			t.Fatal(err)
		}
		s, err := p.Snapshot(ctx, SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(s.YAML, "TOP-SECRET") {
			t.Fatalf("%s: the snapshot shows the file outside the allowed directory:\n%s", stage, s.YAML)
		}
		if got := strings.Contains(s.YAML, "ROUTED"); got != wantRouted {
			t.Errorf("%s: the route answered the frame: %v, want %v:\n%s", stage, got, wantRouted, s.YAML)
		}
		if len(p.TakeRefusedLoads()) == 0 {
			t.Errorf("%s: no refusal noted", stage)
		}
	}
	check("with a route", true)
	p.Network().ClearRoutes(ctx)
	check("after the route", false)
}
