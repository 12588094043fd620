package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mustAnswerJSON fails unless the process printed one JSON object (no Go
// crash, whose exit code is 2 and whose stdout is empty).
func mustAnswerJSON(t *testing.T, what string, r result) {
	t.Helper()
	if r.out == nil || r.code == 2 {
		t.Fatalf("%s: exit %d, no JSON answer: stdout %.300q stderr %.300q", what, r.code, r.stdout, r.stderr)
	}
}

// TestCyclicAndDeepValuesAnswerJSON feeds a list that contains itself to
// a result and to a builtin, and a command nested a million levels deep:
// each gets a JSON answer, never a Go stack overflow.
func TestCyclicAndDeepValuesAnswerJSON(t *testing.T) {
	base := page(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "result.star"), []byte("x = []\nx.append(x)\nresult = x\n"), 0o644)
	r := cli(t, dir, nil, "run", "result.star")
	mustAnswerJSON(t, "cyclic result", r)

	os.WriteFile(filepath.Join(dir, "arg.star"), []byte(fmt.Sprintf("open_tab(%q)\nx = [{\"find\": \"a\"}]\nx.append(x)\npipeline(x)\n", base+"products.html")), 0o644)
	r = cli(t, dir, nil, "run", "arg.star")
	closeTab(t, r.field("tab"))
	mustAnswerJSON(t, "cyclic builtin argument", r)
	if r.code != 1 || !strings.Contains(string(r.stdout), "nested deeper") {
		t.Fatalf("cyclic builtin argument: want an error about nesting, got exit %d %s", r.code, r.stdout)
	}

	deep := `{"steps":[{"pageFunction":{"fn":"1","args":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `}}]}`
	in, w, _ := os.Pipe()
	go func() { w.WriteString(deep); w.Close() }()
	r = cli(t, dir, in)
	mustAnswerJSON(t, "deep JSON", r)
	if r.field("error", "type") != "PARSE" || !strings.Contains(fmt.Sprint(r.field("error", "message")), "nested deeper than") {
		t.Fatalf("deep JSON: want a PARSE error about nesting, got exit %d %.400s", r.code, r.stdout)
	}
}
