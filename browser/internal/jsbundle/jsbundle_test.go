package jsbundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modules writes a set of modules to a temporary directory.
func modules(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	files["state.js"] = "export const S = {};\n"
	files["dom.js"] = "export function withCaches(f) { return (...a) => f(...a); }\n"
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var spec = Spec{Name: "t", Entry: "entry.js", Global: "__t", GoType: "tEntry", GoPrefix: "tp", Caches: true}

// TestBuildSurface: the entry module's exports are the surface, installed
// on the global; what no entry point reaches is left out.
func TestBuildSurface(t *testing.T) {
	dir := modules(t, map[string]string{
		"a.js":     "export function used() { return 1; }\nexport function unused() { return 'UNUSED'; }\n",
		"entry.js": "import { used } from './a.js';\nexport function two() { return used() + 1; }\nexport function one() { return used(); }\n",
	})
	b, err := Build(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(b.Entries, ",") != "one,two" {
		t.Errorf("entries %v, want [one two]", b.Entries)
	}
	if strings.Contains(b.Source, "UNUSED") {
		t.Error("the bundle holds a function nothing uses")
	}
	for _, want := range []string{"const VERSION = '" + b.Version + "'", `"__t"`, "withCaches"} {
		if !strings.Contains(b.Source, want) {
			t.Errorf("the bundle lacks %s:\n%s", want, b.Source)
		}
	}
}

// TestBuildFailsOnMistakes: an import of a name the module does not export
// and what esbuild warns about fail the build, naming the module.
func TestBuildFailsOnMistakes(t *testing.T) {
	for _, c := range []struct {
		name, a, want string
	}{
		{"missing export", "export function usd() { return 1; }\n", `No matching export in "a.js" for import "used"`},
		{"warning", "export function used() { return { k: 1, k: 2 }; }\n", `a.js:1: Duplicate key "k"`},
	} {
		dir := modules(t, map[string]string{
			"a.js":     c.a,
			"entry.js": "import { used } from './a.js';\nexport function one() { return used(); }\n",
		})
		_, err := Build(dir, spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
