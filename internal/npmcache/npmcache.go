// Package npmcache installs a pinned set of npm packages (a package.json
// and its package-lock.json) for the tests that drive real npm code: once
// per lockfile, into a cache directory keyed by the two files' hash, so
// later runs and other test binaries reuse it.
package npmcache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Set is one pinned package set.
type Set struct {
	// What names the set in errors: "widget", "pool".
	What string
	// Dir holds the set's package.json and package-lock.json.
	Dir string
	// Root is the cache directory; each install is Root/<hash>.
	Root string
	// Probe is a path inside an install whose presence says it is
	// complete (default node_modules).
	Probe string
	// Scripts runs the packages' install scripts (the node package
	// fetches its binary in one); by default they are skipped.
	Scripts bool
}

// Install returns the directory whose node_modules holds the set, running
// `npm ci` (with --ignore-scripts unless s.Scripts) unless an earlier run
// did. It installs into a
// temporary sibling and renames it into place, so a reader never sees a
// half-installed tree and two test binaries racing both succeed.
func Install(s Set) (string, error) {
	manifest, err := os.ReadFile(filepath.Join(s.Dir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("read the %s manifest: %w", s.What, err)
	}
	lock, err := os.ReadFile(filepath.Join(s.Dir, "package-lock.json"))
	if err != nil {
		return "", fmt.Errorf("read the %s lockfile: %w", s.What, err)
	}
	probe := s.Probe
	if probe == "" {
		probe = "node_modules"
	}
	sum := sha256.Sum256(append(append([]byte{}, manifest...), lock...))
	final := filepath.Join(s.Root, hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(final, probe)); err == nil {
		return final, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is not installed (install Node.js and npm, e.g. apt-get install nodejs npm): %w", err)
	}
	if err := os.MkdirAll(s.Root, 0o755); err != nil {
		return "", fmt.Errorf("create the %s cache: %w", s.What, err)
	}
	tmp, err := os.MkdirTemp(s.Root, ".install-")
	if err != nil {
		return "", fmt.Errorf("create the %s install dir: %w", s.What, err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	for name, data := range map[string][]byte{"package.json": manifest, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", name, err)
		}
	}
	args := []string{"ci", "--no-audit", "--no-fund", "--loglevel=error"}
	if !s.Scripts {
		args = append(args, "--ignore-scripts")
	}
	cmd := exec.Command(npm, args...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm ci in %s: %w\n%s", tmp, err, out)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp made it private
		return "", fmt.Errorf("open up the %s install: %w", s.What, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		// Another test binary won the race: use its tree.
		if _, statErr := os.Stat(filepath.Join(final, "node_modules")); statErr == nil {
			return final, nil
		}
		return "", fmt.Errorf("move the %s install into place: %w", s.What, err)
	}
	return final, nil
}

// CacheRoot is the directory $env names (when env is not ""), else the
// user cache dir's cdp-skill/name.
func CacheRoot(env, name string) (string, error) {
	if env != "" {
		if dir := os.Getenv(env); dir != "" {
			return dir, nil
		}
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache dir (set HOME or XDG_CACHE_HOME): %w", err)
	}
	return filepath.Join(dir, "cdp-skill", name), nil
}
