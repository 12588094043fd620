package runtime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spilled reads a step output that was kept in a file.
func spilled(t *testing.T, v any) *SpilledValue {
	t.Helper()
	s, ok := v.(*SpilledValue)
	if !ok {
		t.Fatalf("output was not kept in a file: %s", clip(jsonString(v), 300))
	}
	return s
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// TestLargeStepOutputsSpill: big outputs of pageFunction, query,
// extract and console go to files with a preview inline; small ones stay
// inline; the file holds all of it.
func TestLargeStepOutputsSpill(t *testing.T) {
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[
		{"pageFunction":"'x'.repeat(20000)"},
		{"pageFunction":"(() => { for (let i = 0; i < 300; i++) { const li = document.createElement('li'); li.className = 'gen'; li.textContent = 'Generated row number ' + i + ' ' + 'z'.repeat(20); (document.getElementById('gen') || document.body.appendChild(Object.assign(document.createElement('ul'), {id: 'gen'}))).append(li); console.error('noisy error number ' + i + ' ' + 'y'.repeat(40)); } return 300; })()"},
		{"query":{"selector":"li.gen","limit":300}},
		{"extract":{"selector":"#gen","limit":300}},
		{"pageFunction":"'small'"},
		{"console":{"level":"error","limit":300}}
	]}`)
	mustOK(t, out)
	s := spilled(t, out.Steps[0].Output)
	data, err := os.ReadFile(s.File)
	if err != nil || string(data) != strings.Repeat("x", 20000) || s.Bytes != 20000 || len(s.Preview) != stepPreview || !s.Truncated {
		t.Fatalf("pageFunction spill: %d bytes read (%v), %s", len(data), err, clip(jsonString(s), 200))
	}
	for _, i := range []int{2, 3} {
		s := spilled(t, out.Steps[i].Output)
		data, err := os.ReadFile(s.File)
		if err != nil || !json.Valid(data) || !strings.Contains(string(data), "Generated row number 299") {
			t.Errorf("step %d: file %s: %v", i+1, s.File, err)
		}
	}
	if jsonString(out.Steps[4].Output) != `"small"` {
		t.Errorf("a small output is kept in a file: %s", jsonString(out.Steps[4].Output))
	}
	spilled(t, out.Steps[5].Output)
}

// TestOutputPathSavesFullOutput: outputPath (per step, or top level for
// the last step) writes the step's whole output to the named file in the
// output dir; a path outside it fails before the step runs.
func TestOutputPathSavesFullOutput(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	tab, _ := openFeedback(t)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"pageFunction":"document.title","outputPath":"title.txt"},{"pageFunction":"({n: 1})"}],"outputPath":"data/last.json"}`)
	mustOK(t, out)
	s := spilled(t, out.Steps[0].Output)
	if got, _ := os.ReadFile(filepath.Join(dir, "title.txt")); s.File != filepath.Join(dir, "title.txt") || string(got) != s.Preview || s.Truncated {
		t.Errorf("per-step outputPath: file %q holds %q, answer %s", s.File, got, jsonString(s))
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "data", "last.json")); string(got) != `{"n":1}` {
		t.Errorf("top-level outputPath wrote %q", got)
	}
	out = runJSON(t, `{"tab":"`+tab+`","steps":[{"pageFunction":"window.ran = (window.ran || 0) + 1","outputPath":"../escape.json"},{"pageFunction":"window.ran || 0"}]}`)
	if out.OK() || out.Steps[0].Status != StatusError || !strings.Contains(out.Steps[0].Error, "output") {
		t.Fatalf("outputPath outside the output dir: %s", out.JSON())
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.json")); err == nil {
		t.Error("a file was written outside the output dir")
	}
	check := runJSON(t, `{"tab":"`+tab+`","steps":[{"pageFunction":"window.ran || 0"}]}`)
	if jsonString(check.Steps[0].Output) != "0" {
		t.Errorf("the step ran although its outputPath was refused: ran = %s", jsonString(check.Steps[0].Output))
	}
}
