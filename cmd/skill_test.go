package cmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/examples"
)

// docBlock is a fenced code block of a skill document.
type docBlock struct {
	lang, code string
	line       int
}

var fence = regexp.MustCompile("(?m)^```(json|python)\\n")

func docBlocks(doc string) []docBlock {
	var out []docBlock
	for _, m := range fence.FindAllStringSubmatchIndex(doc, -1) {
		start := m[1]
		end := strings.Index(doc[start:], "\n```")
		if end < 0 {
			continue
		}
		out = append(out, docBlock{lang: doc[m[2]:m[3]], code: doc[start : start+end+1], line: strings.Count(doc[:start], "\n") + 1})
	}
	return out
}

// TestInstallSkillExamplesRun installs the skill into a temporary HOME and
// runs every json and python block of the installed SKILL.md and
// EXAMPLES.md, in order, against the demo site.
func TestInstallSkillExamplesRun(t *testing.T) {
	browsertest.Require(t)
	home := t.TempDir()
	cmd := exec.Command(binary(t), "install-skill")
	cmd.Env = append(os.Environ(), "HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install-skill: %v %s", err, out)
	}
	srv, err := examples.Serve("")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv(state.EnvSitesDir, t.TempDir())
	for _, dir := range []string{".claude", ".codex"} {
		for _, name := range []string{"SKILL.md", "EXAMPLES.md"} {
			data, err := os.ReadFile(filepath.Join(home, dir, "skills", "cdp-skill", name))
			if err != nil {
				t.Fatalf("%s not installed: %v", name, err)
			}
			if strings.Contains(string(data), "{{binary}}") {
				t.Errorf("%s/%s still has the {{binary}} placeholder", dir, name)
			}
		}
	}
	for _, name := range []string{"SKILL.md", "EXAMPLES.md"} {
		t.Run(name, func(t *testing.T) {
			data, _ := os.ReadFile(filepath.Join(home, ".claude", "skills", "cdp-skill", name))
			runDocBlocks(t, string(data), srv.URL)
		})
	}
}

func runDocBlocks(t *testing.T, doc, base string) {
	blocks := docBlocks(doc)
	if len(blocks) < 4 {
		t.Fatalf("only %d runnable blocks", len(blocks))
	}
	dir := t.TempDir()
	tab := ""
	// Snapshot numbers come from a counter all tabs share: the doc's s1 is
	// the number of the first refs this run sees, s2 the next.
	firstSnap := 0
	rewrite := func(code string) string {
		code = strings.ReplaceAll(code, "http://127.0.0.1:8099/", base)
		if tab != "" {
			code = regexp.MustCompile(`"t1"`).ReplaceAllString(code, `"`+tab+`"`)
		}
		if firstSnap > 0 {
			code = docRefs.ReplaceAllStringFunc(code, func(ref string) string {
				var n, e int
				fmt.Sscanf(ref, "s%de%d", &n, &e)
				return fmt.Sprintf("s%de%d", firstSnap+n-1, e)
			})
		}
		return code
	}
	for _, b := range blocks {
		code := rewrite(b.code)
		var r result
		switch b.lang {
		case "json":
			r = cli(t, dir, nil, code)
		case "python":
			path := filepath.Join(dir, "block.star")
			os.WriteFile(path, []byte(code), 0o644)
			args := []string{"run", path}
			if tab != "" {
				args = append(args, "--tab", tab)
			}
			r = cli(t, dir, nil, args...)
		}
		if r.code != 0 {
			t.Fatalf("block at line %d failed:\n%s\n→ %s %s", b.line, code, r.stdout, r.stderr)
		}
		if m := regexp.MustCompile(`(?:ref=|"ref":")s([0-9]+)e[0-9]+`).FindSubmatch(r.stdout); m != nil && firstSnap == 0 {
			firstSnap, _ = strconv.Atoi(string(m[1]))
		}
		if opened, _ := r.field("steps", "0", "output", "tab").(string); tab == "" && opened != "" && r.field("steps", "0", "action") == "openTab" {
			tab = opened
			t.Cleanup(func() { cli(t, dir, nil, `{"steps":[{"closeTab":"`+opened+`"}]}`) })
		}
	}
}

// docRefs matches the refs the docs write (s1e4).
var docRefs = regexp.MustCompile(`\bs[0-9]+e[0-9]+\b`)
