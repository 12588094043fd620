package browser

import (
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
