package cmd

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/lang"
)

// skillStepTable returns the step names SKILL.md's "## Steps" table lists
// (the backticked names of its second column), in order.
func skillStepTable(t *testing.T, doc string) []string {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Steps\n")
	if !ok {
		t.Fatal(`SKILL.md has no "## Steps" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	name := regexp.MustCompile("`([a-zA-Z]+)`")
	var steps []string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "-") || strings.TrimSpace(cells[1]) == "kind" {
			continue
		}
		for _, m := range name.FindAllStringSubmatch(cells[2], -1) {
			steps = append(steps, m[1])
		}
	}
	return steps
}

// TestSkillStepTableMatchesCatalog: SKILL.md's step table names every
// step of the catalog once and no step the catalog lacks, so an agent that
// reads only SKILL.md learns of every step (its options are in the
// generated REFERENCE.md, checked by TestReferenceMatchesCatalog).
func TestSkillStepTableMatchesCatalog(t *testing.T) {
	data, err := os.ReadFile("skill/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := skillStepTable(t, string(data))
	if len(listed) == 0 {
		t.Fatal("SKILL.md's step table lists no steps")
	}
	seen := map[string]bool{}
	for _, s := range listed {
		if seen[s] {
			t.Errorf("SKILL.md's step table lists %s twice", s)
		}
		seen[s] = true
		if a, ok := lang.LookupAction(s); !ok || a.Name != s {
			t.Errorf("SKILL.md's step table lists %s, which is not a step of the catalog (cdp-skill help lists them)", s)
		}
	}
	for _, a := range lang.Actions() {
		if !slices.Contains(listed, a.Name) {
			t.Errorf("SKILL.md's step table does not list the step %s: add it to its kind's row", a.Name)
		}
	}
}
