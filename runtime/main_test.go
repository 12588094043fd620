package runtime

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

func TestMain(m *testing.M) {
	if recipes := os.Getenv(memChildEnv); recipes != "" {
		os.Exit(memChild(recipes))
	}
	browsertest.Main(m)
}

// testOptions points the runtime at the test binary's Chromium.
func testOptions(t testing.TB) Options {
	c := browsertest.Require(t)
	return Options{Endpoint: c.Endpoint, Headless: true, Stdlib: stdlib.FS}
}

func pagesURL(t testing.TB) string {
	return browsertest.Serve(t, os.DirFS("testdata/pages"))
}

func runJSON(t *testing.T, input string) *Output {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, out := RunJSON(ctx, []byte(input), testOptions(t))
	return out
}

func runRecipe(t *testing.T, prog Program) *Output {
	t.Helper()
	if prog.Name == "" {
		prog.Name = "recipe.star"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return Run(ctx, prog, testOptions(t))
}

// mustOK fails the test when the output is not ok, printing it.
func mustOK(t *testing.T, out *Output) {
	t.Helper()
	if !out.OK() {
		t.Fatalf("status %s: %s", out.Status, out.JSON())
	}
}

// closeTabAfter closes the output's tab when the test ends.
func closeTabAfter(t *testing.T, out *Output) {
	if out.Tab == "" {
		return
	}
	tab := out.Tab
	t.Cleanup(func() { runJSON(t, `{"steps":[{"closeTab":"`+tab+`"}]}`) })
}

func stepOutput(t *testing.T, out *Output, i int) map[string]any {
	t.Helper()
	if i >= len(out.Steps) {
		t.Fatalf("no step %d in %s", i, out.JSON())
	}
	data, _ := json.Marshal(out.Steps[i].Output)
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}

func jsonString(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

func mustContain(t *testing.T, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%q does not contain %q", s, p)
		}
	}
}
