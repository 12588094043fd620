//go:build unix

package state

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// someoneElses returns a directory owned by another user: a fresh one
// given to nobody when the test runs as root, else the root directory.
func someoneElses(t *testing.T) string {
	if os.Getuid() != 0 {
		return "/"
	}
	dir := filepath.Join(t.TempDir(), "planted")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestStateDirOthersControlIsRefused (issue 31, Critical 2): a state dir
// that belongs to another user, or that others can write, is refused with
// an error that says what to do, and nothing is written into it.
func TestStateDirOthersControlIsRefused(t *testing.T) {
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o777)
	for name, c := range map[string]struct{ dir, says string }{
		"writable by others": {open, "chmod 700"},
		"another user's":     {someoneElses(t), "not to you"},
	} {
		t.Run(name, func(t *testing.T) {
			useDir(t, c.dir)
			_, err := Path("tabs.json")
			if !errors.Is(err, ErrUnsafeDir) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), EnvDir) {
				t.Fatalf("Path in %s: %v", c.dir, err)
			}
			if _, err := OpenRoot(); !errors.Is(err, ErrUnsafeDir) {
				t.Fatalf("OpenRoot in %s: %v", c.dir, err)
			}
			if _, err := WriteFile([]byte("x"), "endpoints", "e.json"); !errors.Is(err, ErrUnsafeDir) {
				t.Fatalf("WriteFile in %s: %v", c.dir, err)
			}
			if _, err := os.Stat(filepath.Join(c.dir, "endpoints")); err == nil {
				t.Fatalf("something was written in %s", c.dir)
			}
		})
	}
}

// TestStateSubdirsAndProfilesAreChecked: a subdirectory of the state dir
// that is a symbolic link (locks -> elsewhere), or a Chrome profile that
// belongs to another user, is refused; no lock file is made outside.
func TestStateSubdirsAndProfilesAreChecked(t *testing.T) {
	dir := t.TempDir()
	useDir(t, dir)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "locks")); err != nil {
		t.Fatal(err)
	}
	if _, err := Path("locks", "target.lock"); !errors.Is(err, ErrUnsafeDir) || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a locks symlink: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("files made outside the state dir: %v", entries)
	}
	profile := filepath.Join(dir, "chrome-9333")
	if os.Getuid() == 0 {
		os.Mkdir(profile, 0o700)
		os.Chown(profile, 65534, 65534)
	} else {
		os.Mkdir(profile, 0o700)
		os.Chmod(profile, 0o777)
	}
	if _, err := EnsureSubdir("chrome-9333"); !errors.Is(err, ErrUnsafeDir) {
		t.Fatalf("a planted Chrome profile: %v", err)
	}
	// The state dir's own, private subdirectories are fine.
	if p, err := Path("endpoints", "e.json"); err != nil || filepath.Dir(p) != filepath.Join(dir, "endpoints") {
		t.Fatalf("a private subdirectory: %q %v", p, err)
	}
}

// TestDefaultStateDirIsPerUser: with no state dir set, it is the user's
// own ($XDG_RUNTIME_DIR/cdp-skill, or $TMPDIR/cdp-skill-<uid>), created
// with mode 0700.
func TestDefaultStateDirIsPerUser(t *testing.T) {
	useDir(t, "")
	prev := SetRuntimeDir("")
	t.Cleanup(func() { SetRuntimeDir(prev) })
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	want := filepath.Join(tmp, "cdp-skill-"+strconv.Itoa(os.Getuid()))
	if Dir() != want {
		t.Fatalf("default state dir %q, want %q", Dir(), want)
	}
	if err := Ensure(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(want); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("created state dir: %v %v", info, err)
	}
	xdg := t.TempDir()
	SetRuntimeDir(xdg)
	if Dir() != filepath.Join(xdg, "cdp-skill") {
		t.Fatalf("state dir under XDG_RUNTIME_DIR: %q", Dir())
	}
}

// TestRegistryRefusesForeignEndpoints: a tabs.json entry whose port or
// host cdp-skill could not have written (port 1, a host with a path) is
// dropped as corrupt, never followed.
func TestRegistryRefusesForeignEndpoints(t *testing.T) {
	dir := t.TempDir()
	useDir(t, dir)
	id := strings.Repeat("A", 32)
	data := `{"nextId": 5, "tabs": {
		"t1": {"targetId": "` + id + `", "host": "127.0.0.1", "port": 1},
		"t2": {"targetId": "` + id + `", "host": "evil/x", "port": 9222},
		"t3": {"targetId": "` + id + `", "endpoint": "file:///etc/passwd"},
		"t4": {"targetId": "` + id + `", "host": "127.0.0.1", "port": 9222}}}`
	if err := os.WriteFile(filepath.Join(dir, "tabs.json"), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	reg, err := OpenRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"t1", "t2", "t3"} {
		if tab, err := reg.Lookup(a); !errors.Is(err, ErrUnknownTab) {
			t.Fatalf("%s was followed: %+v %v", a, tab, err)
		}
	}
	if tab, err := reg.Lookup("t4"); err != nil || tab.Port != 9222 {
		t.Fatalf("a good entry: %+v %v", tab, err)
	}
	if !strings.Contains(reg.Recovered(), "dropped") {
		t.Fatalf("the answer is not told: %q", reg.Recovered())
	}
}
