package cmd

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/cdp-skill/cdp-skill/"

// importRules is DESIGN.md's dependency graph: cmd → runtime → builtins →
// browser, lang used by cmd, runtime and builtins, and nothing going up. Each
// package (by directory, its subdirectories included) lists the imports it
// must not have; a prefix ending in "/" forbids a whole tree.
var importRules = []struct {
	dir       string
	forbidden []string
}{
	{"browser", []string{module + "lang", module + "builtins", module + "runtime", module + "cmd", module + "stdlib", module + "examples", "go.starlark.net/", "github.com/spf13/cobra", "github.com/modelcontextprotocol/"}},
	{"lang", []string{module + "browser", module + "builtins", module + "runtime", module + "cmd", "github.com/chromedp/", "github.com/spf13/cobra"}},
	{"builtins", []string{module + "runtime", module + "cmd", "github.com/spf13/cobra", "github.com/modelcontextprotocol/"}},
	{"runtime", []string{module + "cmd", "github.com/spf13/cobra", "github.com/modelcontextprotocol/"}},
	{"cmd", []string{"github.com/chromedp/", module + "builtins"}},
	{"stdlib", []string{module}},
	{"examples", []string{module}},
}

// TestImportRules fails when a package imports one the design forbids it,
// so a shortcut up the stack is caught when it is written.
func TestImportRules(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, rule := range importRules {
		checked += walkSources(t, root, rule.dir, func(path, rel string) error {
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range rule.forbidden {
					if p == strings.TrimSuffix(bad, "/") || strings.HasPrefix(p, strings.TrimSuffix(bad, "/")+"/") {
						t.Errorf("%s imports %s: %s must not depend on it (DESIGN.md, Layout)", rel, p, rule.dir)
					}
				}
			}
			return nil
		})
	}
	if checked < 100 {
		t.Fatalf("checked only %d files: is the walk rooted at the repository?", checked)
	}
}

// walkSources calls fn for every non-test Go file under root/dir (not in
// testdata or hidden folders), with its path relative to root, and
// returns how many it saw; an error fails the test.
func walkSources(t *testing.T, root, dir string, fn func(path, rel string) error) int {
	t.Helper()
	seen := 0
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		seen++
		return fn(path, rel)
	})
	if err != nil {
		t.Fatal(err)
	}
	return seen
}
