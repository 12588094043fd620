package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/examples"
)

// docBlock is a fenced code block of a skill document. claims is the
// "→ `path` is `json`, …" line right after a json block: what its answer
// says, checked when the block runs.
type docBlock struct {
	lang, code string
	line       int
	claims     string
}

var fence = regexp.MustCompile("(?m)^```(json|python|sh)\\n")

func docBlocks(doc string) []docBlock {
	var out []docBlock
	for _, m := range fence.FindAllStringSubmatchIndex(doc, -1) {
		start := m[1]
		end := strings.Index(doc[start:], "\n```")
		if end < 0 {
			continue
		}
		b := docBlock{lang: doc[m[2]:m[3]], code: doc[start : start+end+1], line: strings.Count(doc[:start], "\n") + 1}
		if rest, ok := strings.CutPrefix(doc[start+end+len("\n```"):], "\n→ "); ok {
			b.claims, _, _ = strings.Cut(rest, "\n")
		}
		out = append(out, b)
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
		case "sh":
			r = shell(t, dir, code)
		}
		claims := parseClaims(t, b)
		wantCode := 0
		if claims["status"] == "error" {
			wantCode = 1
		}
		if r.code != wantCode {
			t.Fatalf("block at line %d exited %d, want %d:\n%s\n→ %s %s", b.line, r.code, wantCode, code, r.stdout, r.stderr)
		}
		for path, want := range claims {
			if got := r.field(strings.Split(path, ".")...); !reflect.DeepEqual(got, want) {
				t.Errorf("block at line %d: %s is %s, the doc says %s", b.line, path, jsonText(got), jsonText(want))
			}
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

// shell runs a shell block of the docs (a heredoc feeding a command on
// stdin) with cdp-skill on the PATH, against the test Chromium.
func shell(t *testing.T, dir, code string) result {
	t.Helper()
	c := browsertest.Require(t)
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", code)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary(t))+":"+os.Getenv("PATH"),
		EnvPort+"="+strconv.Itoa(c.Port), EnvHeadless+"=1")
	cmd.Dir = dir
	return runProcess(t, cmd)
}

// docRefs matches the refs the docs write (s1e4).
var docRefs = regexp.MustCompile(`\bs[0-9]+e[0-9]+\b`)
var claimPattern = regexp.MustCompile("`([A-Za-z0-9_.]+)` is `([^`]+)`")

// parseClaims reads a block's claims: answer path → expected JSON value.
func parseClaims(t *testing.T, b docBlock) map[string]any {
	t.Helper()
	out := map[string]any{}
	if b.claims == "" {
		return out
	}
	ms := claimPattern.FindAllStringSubmatch(b.claims, -1)
	if len(ms) == 0 {
		t.Fatalf("block at line %d: claims line %q has no `path` is `json` pair", b.line, b.claims)
	}
	for _, m := range ms {
		var v any
		if err := json.Unmarshal([]byte(m[2]), &v); err != nil {
			t.Fatalf("block at line %d: claim %s is not JSON: %v", b.line, m[0], err)
		}
		out[m[1]] = v
	}
	return out
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// TestSkillListsDifferencesFromSpec: SKILL.md has one section listing the
// deliberate differences from the spec, and each of its examples says what
// its answer holds (checked by TestInstallSkillExamplesRun).
func TestSkillListsDifferencesFromSpec(t *testing.T) {
	data, err := os.ReadFile("skill/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Differences from the spec\n")
	if !ok {
		t.Fatal("SKILL.md has no \"Differences from the spec\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, topic := range []string{`"serialize": true`, "`siteProfile`", "Passwords", "`refs` is a count", "artifacts.snapshot", "stopOnError", "Files", "Additions"} {
		if !strings.Contains(section, topic) {
			t.Errorf("the differences section does not cover %s", topic)
		}
	}
	blocks := docBlocks(section)
	if len(blocks) < 3 {
		t.Fatalf("%d examples in the differences section", len(blocks))
	}
	for _, b := range blocks {
		if len(parseClaims(t, b)) == 0 {
			t.Errorf("example at section line %d says nothing about its answer", b.line)
		}
	}
}

// TestExamplesListRefusalsWithTheSpecsWay: EXAMPLES.md's differences
// section covers each refusal the spec does not make (a covering layer,
// an ambiguous text, a path outside the output dir, the screenshot after
// the answer, the snapshot's shorter lines), each with the way to the
// spec's behaviour, and every example says what its answer holds (checked
// by TestInstallSkillExamplesRun).
func TestExamplesListRefusalsWithTheSpecsWay(t *testing.T) {
	data, err := os.ReadFile("skill/EXAMPLES.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Differences from the spec\n")
	if !ok {
		t.Fatal("EXAMPLES.md has no \"Differences from the spec\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, topic := range []string{"ElementInterceptedError", `"jsClick": true`, "AmbiguousTargetError", "withinSelector",
		"CDP_SKILL_OUTPUT_DIR", "CDP_SKILL_RESIDENT=0", "[name=…]"} {
		if !strings.Contains(section, topic) {
			t.Errorf("the differences section does not cover %s", topic)
		}
	}
	flat := strings.Join(strings.Fields(section), " ")
	if n := strings.Count(flat, "The spec's behaviour") + strings.Count(flat, "The spec's `name`"); n < 5 {
		t.Errorf("%d differences say how to get the spec's behaviour, want 5", n)
	}
	blocks := docBlocks(section)
	if len(blocks) < 4 {
		t.Fatalf("%d examples in the differences section", len(blocks))
	}
	for _, b := range blocks {
		if len(parseClaims(t, b)) == 0 {
			t.Errorf("example at section line %d says nothing about its answer", b.line)
		}
	}
	skill, _ := os.ReadFile("skill/SKILL.md")
	if !strings.Contains(string(skill), "EXAMPLES.md.\n") || strings.Contains(string(skill), "No `actionRequired`") {
		t.Error("SKILL.md's differences do not point at EXAMPLES.md, or still deny actionRequired")
	}
}
