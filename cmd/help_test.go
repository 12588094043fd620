package cmd

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/lang"
)

// TestReferenceMatchesCatalog: the parameter reference installed next to
// SKILL.md is the one the catalog generates, so the docs cannot disagree
// with what the steps accept.
func TestReferenceMatchesCatalog(t *testing.T) {
	data, err := os.ReadFile("skill/REFERENCE.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != lang.Reference() {
		t.Fatal("skill/REFERENCE.md is stale: run `go generate ./cmd` and commit it")
	}
	for _, a := range lang.Actions() {
		if !strings.Contains(string(data), "\n## "+a.Name+"\n") {
			t.Errorf("the reference has no section for %s", a.Name)
		}
		for _, p := range a.Params {
			if !strings.Contains(string(data), "| `"+p.Name+"` |") {
				t.Errorf("the reference does not list %s's %s", a.Name, p.Name)
			}
		}
	}
}

// TestSkillLinksTheReference: SKILL.md stays short and sends the agent to
// the generated reference and to `help STEP` for parameters.
func TestSkillLinksTheReference(t *testing.T) {
	data, err := os.ReadFile("skill/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 15_000 {
		t.Errorf("SKILL.md is %d bytes; an agent reads all of it up front: keep it within 15000 and move details to the reference", len(data))
	}
	for _, want := range []string{"REFERENCE.md", "cdp-skill help"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("SKILL.md does not mention %s", want)
		}
	}
}

func runHelp(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Execute(context.Background(), append([]string{"help"}, args...), strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

// TestHelpPrintsOneStep: `cdp-skill help drag` prints drag's parameters
// with types, defaults and an example; a recipe name works too; a typo
// gets the nearest step; a command name prints its usage.
func TestHelpPrintsOneStep(t *testing.T) {
	out, _, code := runHelp(t, "drag")
	if code != 0 {
		t.Fatalf("help drag exited %d", code)
	}
	for _, want := range []string{"## drag", "| `source` | string or object |", "| `steps` | integer | `10` |", "Example: `{\"drag\": "} {
		if !strings.Contains(out, want) {
			t.Errorf("help drag lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "## click") {
		t.Error("help drag printed other steps")
	}
	if out, _, _ := runHelp(t, "select_option"); !strings.Contains(out, "## selectOption") {
		t.Errorf("help select_option: %s", out)
	}
	if _, stderr, code := runHelp(t, "dragg"); code == 0 || !strings.Contains(stderr, `did you mean "drag"`) {
		t.Errorf("help dragg: exit %d, %s", code, stderr)
	}
	if out, _, _ := runHelp(t, "attr"); !strings.Contains(out, "`attr(selector, name)`: an attribute") {
		t.Errorf("help attr: %s", out)
	}
	if out, _, _ := runHelp(t, "recipe"); !strings.Contains(out, "## recipe") {
		t.Errorf("help recipe (a step and a command) does not print the step: %s", out)
	}
	if out, _, _ := runHelp(t, "run"); !strings.Contains(out, "cdp-skill run FILE.star") {
		t.Errorf("help run: %s", out)
	}
	if out, _, _ := runHelp(t, "steps"); out != lang.Reference() {
		t.Error("help steps is not the reference")
	}
}
