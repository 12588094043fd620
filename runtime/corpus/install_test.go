package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
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
// <cache>/<hash of the lockfile>, unless an earlier run did. It installs
// into a temporary sibling and renames it into place, so a reader never
// sees a half-installed tree and two test binaries racing both succeed.
func installWidgets() (string, error) {
	lock, err := os.ReadFile(filepath.Join(widgetsDir, "package-lock.json"))
	if err != nil {
		return "", fmt.Errorf("read the widget lockfile: %w", err)
	}
	manifest, err := os.ReadFile(filepath.Join(widgetsDir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("read the widget manifest: %w", err)
	}
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append(append([]byte{}, manifest...), lock...))
	final := filepath.Join(root, hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(final, "node_modules")); err == nil {
		return final, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is not installed (install Node.js and npm, e.g. apt-get install nodejs npm): %w", err)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("create the widget cache: %w", err)
	}
	tmp, err := os.MkdirTemp(root, ".install-")
	if err != nil {
		return "", fmt.Errorf("create the widget install dir: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	for name, data := range map[string][]byte{"package.json": manifest, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", name, err)
		}
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm ci in %s: %w\n%s", tmp, err, out)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp made it private
		return "", fmt.Errorf("open up the widget install: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another test binary won the race: use its tree.
		if _, statErr := os.Stat(filepath.Join(final, "node_modules")); statErr == nil {
			return final, nil
		}
		return "", fmt.Errorf("move the widget install into place: %w", err)
	}
	return final, nil
}

// cacheRoot is $CDP_SKILL_WIDGET_CACHE, else the user cache dir's
// cdp-skill/widgets.
func cacheRoot() (string, error) {
	if dir := os.Getenv(EnvWidgetCache); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache dir (set %s): %w", EnvWidgetCache, err)
	}
	return filepath.Join(dir, "cdp-skill", "widgets"), nil
}

// moduleFS serves node_modules of the installed tree.
func moduleFS(dir string) (fs.FS, error) {
	sub := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(sub); err != nil {
		return nil, errors.New("the widget install has no node_modules: delete " + dir + " and run again")
	}
	return os.DirFS(sub), nil
}
