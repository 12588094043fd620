package npmcache

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallOnceThenReuse installs a package set without dependencies
// (npm ci needs no network for it) and installs it again: the second call
// returns the same tree, untouched, and a changed lockfile gets its own.
func TestInstallOnceThenReuse(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("npm is needed (CI=true): install Node.js and npm")
		}
		t.Skip("npm not found")
	}
	src, root := t.TempDir(), t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name":"probe","version":"1.0.0","private":true}`)
	write("package-lock.json", `{"name":"probe","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"probe","version":"1.0.0"}}}`)
	set := Set{What: "probe", Dir: src, Root: root, Probe: "package-lock.json"}
	dir, err := Install(set)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != root {
		t.Fatalf("installed in %s, want a directory of %s", dir, root)
	}
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Install(set)
	if err != nil || again != dir {
		t.Fatalf("second install: %s, %v; want %s", again, err, dir)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the second install replaced the first: %v", err)
	}
	write("package.json", `{"name":"probe","version":"1.0.1","private":true}`)
	write("package-lock.json", `{"name":"probe","version":"1.0.1","lockfileVersion":3,"requires":true,"packages":{"":{"name":"probe","version":"1.0.1"}}}`)
	other, err := Install(set)
	if err != nil || other == dir {
		t.Fatalf("changed lockfile: %s, %v; want a new install beside %s", other, err, dir)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 2 {
		t.Errorf("cache holds %d entries, want the two installs (no temporary left)", len(entries))
	}
}

// TestInstallSaysWhatIsMissing: a set without its lockfile names it.
func TestInstallSaysWhatIsMissing(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "package.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Install(Set{What: "probe", Dir: src, Root: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "read the probe lockfile") {
		t.Fatalf("error %v, want it to name the probe lockfile", err)
	}
}
