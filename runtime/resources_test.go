package runtime

import (
	"strings"
	"testing"
	"time"
)

// TestRecipeMemoryIsBounded runs recipes that grow the heap without end
// (a loop of appends; a few huge strings) under a 64 MiB limit: each is
// stopped with an error that names the limit, and the process lives on.
func TestRecipeMemoryIsBounded(t *testing.T) {
	t.Setenv(EnvMaxMemory, "64")
	for name, src := range map[string]string{
		"appends":      "x = []\nfor i in range(100000000):\n    x.append('abcdefghij' * 100)\nresult = len(x)\n",
		"huge strings": "x = 'a' * (1 << 24)\ny = [x + str(i) for i in range(64)]\nresult = len(y)\n",
	} {
		t.Run(name, func(t *testing.T) {
			out := runRecipe(t, Program{Source: []byte(src), MaxSteps: 1 << 40, Timeout: 50 * time.Second})
			if out.OK() || len(out.Errors) != 1 || !strings.Contains(out.Errors[0].Error, "more than 64 MiB of memory") {
				t.Fatalf("a recipe over the memory limit: %.600s", out.JSON())
			}
		})
	}
	// Under the limit nothing changes.
	out := runRecipe(t, Program{Source: []byte("x = ['a' * 1000 for i in range(1000)]\nresult = len(x)\n")})
	mustOK(t, out)
}

// TestFormattingDeepValuesIsRefused: str, repr and print of a value nested
// far past the data bound fail at once instead of formatting for tens of
// seconds past the deadline; cycles and ordinary values still format.
func TestFormattingDeepValuesIsRefused(t *testing.T) {
	for _, fn := range []string{"str", "repr", "print"} {
		src := "x = []\nfor i in range(100000):\n    x = [x]\n" + fn + "(x)\nresult = 1\n"
		start := time.Now()
		out := runRecipe(t, Program{Source: []byte(src), MaxSteps: 1 << 40, Timeout: 30 * time.Second})
		if out.OK() || len(out.Errors) != 1 || !strings.Contains(out.Errors[0].Error, "nested deeper than") {
			t.Fatalf("%s of a deep value: %.600s", fn, out.JSON())
		}
		t.Logf("%s refused after %s", fn, time.Since(start))
	}
	out := runRecipe(t, Program{Source: []byte("x = [1]\nx.append(x)\nprint(x)\nresult = str(x) + repr({'a': (1, [2])})\n")})
	mustOK(t, out)
	if out.Result != `[1, [...]]{"a": (1, [2])}` || len(out.Log) != 1 || out.Log[0] != "[1, [...]]" {
		t.Fatalf("formatting ordinary values: %s", out.JSON())
	}
}

// TestWatchdogBlamesTheProgramNotChrome: when no step is running, a
// program past its deadline is its own code's fault, and the answer says
// so.
func TestWatchdogBlamesTheProgramNotChrome(t *testing.T) {
	w := newWatchdog()
	w.arm(time.Minute, "step 1 (goto)", 1, "goto")
	w.disarm()
	out := w.output("")
	if out.Error == nil || strings.Contains(out.Error.Message, "Chrome did not answer") || !strings.Contains(out.Error.Message, "Starlark code was still computing") {
		t.Fatalf("watchdog answer outside any step: %s", out.JSON())
	}
}
