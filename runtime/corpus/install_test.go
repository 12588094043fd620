package corpus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cdp-skill/cdp-skill/internal/npmcache"
)

// EnvWidgetCache names the directory the pinned widget libraries are
// installed under (one subdirectory per lockfile hash). Without it they go
// under os.UserCacheDir()/cdp-skill/widgets.
const EnvWidgetCache = "CDP_SKILL_WIDGET_CACHE"

const widgetsDir = "testdata/widgets"

var (
	installOnce sync.Once
	installDir  string // holds node_modules once installed
	installErr  error
)

// widgets returns the directory whose node_modules holds the corpus's
// libraries, installing them on first use. When npm is missing or the
// install fails the test fails in CI (CI=true) and skips elsewhere, the
// rule browsertest applies to Chromium.
func widgets(t testing.TB) string {
	t.Helper()
	installOnce.Do(func() { installDir, installErr = installWidgets() })
	if installErr != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("widget libraries unavailable (%v); CI=true makes this a failure", installErr)
		}
		t.Fatalf("widget libraries unavailable: %v", installErr)
	}
	return installDir
}

// installWidgets installs testdata/widgets' lockfile with `npm ci` into
// <cache>/<hash of the lockfile>, unless an earlier run did.
func installWidgets() (string, error) {
	root, err := npmcache.CacheRoot(EnvWidgetCache, "widgets")
	if err != nil {
		return "", err
	}
	return npmcache.Install(npmcache.Set{What: "widget", Dir: widgetsDir, Root: root})
}

// moduleFS serves node_modules of the installed tree.
func moduleFS(dir string) (fs.FS, error) {
	sub := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(sub); err != nil {
		return nil, errors.New("the widget install has no node_modules: delete " + dir + " and run again")
	}
	return os.DirFS(sub), nil
}
