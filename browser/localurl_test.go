package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestURLPolicyAllowsOnlyWhatTheCallerListed: the zero policy refuses
// every local URL; a policy opens file: URLs inside its directories (links
// resolved) and the schemes it names, nothing else; web URLs always pass.
func TestURLPolicyAllowsOnlyWhatTheCallerListed(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.html"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.html"), filepath.Join(dir, "link.html"))
	pol := URLPolicy{FileDirs: []string{dir}, Schemes: []string{"chrome"}}
	for _, tc := range []struct {
		pol  URLPolicy
		url  string
		want string // "" = allowed, else part of the error
	}{
		{URLPolicy{}, "https://example.com/", ""},
		{URLPolicy{}, "example.com/a", ""},
		{URLPolicy{}, "file://" + dir + "/a.html", FileDirsEnv},
		{URLPolicy{}, "chrome://version", AllowSchemesEnv + "=chrome"},
		{pol, "file://" + dir + "/a.html", ""},
		{pol, "file://" + outside + "/secret.html", "outside the allowed directories"},
		{pol, "file://" + dir + "/link.html", "outside the allowed directories"},
		{pol, "view-source:file://" + outside + "/secret.html", "outside the allowed directories"},
		{pol, "CHROME://version", ""},
		{pol, "devtools://devtools/x", AllowSchemesEnv + "=devtools"},
	} {
		_, err := tc.pol.Check(tc.url)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s under %+v: %v", tc.url, tc.pol, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s under %+v: %v, want %q", tc.url, tc.pol, err, tc.want)
		}
	}
}

// TestHistoryAndReloadKeepTheFilePolicy (issue 31, item 4): a file: page an
// opted-in command opened is not reached again by back, forward or reload
// once the opt-in is gone; with it they still work.
func TestHistoryAndReloadKeepTheFilePolicy(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "local.html")
	os.WriteFile(file, []byte(`<title>local</title><p>secret`), 0o600)
	web := servePages(t, map[string]string{"web.html": `<title>web</title>`})
	p := openTestTab(t)
	ctx := testCtx(t)
	allowed := URLPolicy{FileDirs: []string{dir}}
	p.SetURLPolicy(allowed)
	if _, err := p.Navigate(ctx, "file://"+file, WaitLoad); err != nil {
		t.Fatal(err)
	}
	title := func() string {
		raw, err := p.Eval(ctx, `document.title`)
		if err != nil {
			t.Fatal(err)
		}
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	if title() != "local" {
		t.Fatalf("file page not opened: %q", title())
	}
	p.SetURLPolicy(URLPolicy{})
	if _, err := p.Reload(ctx, WaitLoad, false); KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), FileDirsEnv) {
		t.Fatalf("reload of a file: page without the opt-in: %v", err)
	}
	if _, err := p.Navigate(ctx, web+"web.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Back(ctx, WaitLoad); KindOf(err) != KindStepValidation || title() != "web" {
		t.Fatalf("back to a file: page without the opt-in: %v, page %q", err, title())
	}
	p.SetURLPolicy(allowed)
	if _, err := p.Back(ctx, WaitLoad); err != nil || title() != "local" {
		t.Fatalf("back with the opt-in: %v, page %q", err, title())
	}
	p.SetURLPolicy(URLPolicy{})
	if _, err := p.Forward(ctx, WaitLoad); err != nil || title() != "web" {
		t.Fatalf("forward to the web page: %v, page %q", err, title())
	}
}
