package runtime

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

// recipeFuzzSeeds are recipes of every shape: plain computation, the
// memory hogs of issue 31, deep nesting, runaway loops, steps (which reach
// no Chrome here), load() of the standard library, and broken syntax.
var recipeFuzzSeeds = []string{
	"result = 1 + 2\n",
	"x = [0] * 1000000000\n",
	"x = list(range(2000000000))\n",
	"s = 'x'\nfor i in range(40):\n    s = s + s\n",
	"s = 'x' * 1000\nfor i in range(40):\n    s = '{0}{0}{0}{0}'.format(s)\n",
	"x = [1]\nfor i in range(60):\n    x = [x, x]\ns = str(x)\n",
	"def f(n):\n    return [f(n - 1)] if n else []\nresult = f(500)\n",
	"d = {}\nfor i in range(100000):\n    d[str(i)] = i\nresult = len(d)\n",
	"print('a' * 10000000)\n",
	"while True:\n    pass\n",
	"for i in range(1 << 62):\n    pass\n",
	"goto('https://example.com')\nclick(text = 'Go')\n",
	"snapshot()\nresult = 1\n",
	"load('@stdlib/forms.star', 'login')\nresult = 1\n",
	"fail('stop')\n",
	"result = {'a': [1, 2, None, True, 1.5, 'x' * 100]}\n",
	"def f(:\n",
	"x = \"\\u0000\\xff\"\nresult = x\n",
}

// FuzzRunRecipe runs mutated recipes through the whole runtime, with no
// Chrome to reach (a remote endpoint that refuses, CHROME_PATH at a
// program that fails): every one answers, within its timeout plus the
// grace, with an answer that encodes and says why when it failed, and the
// process lives on (a panic or an out-of-memory fails the fuzzer).
func FuzzRunRecipe(f *testing.F) {
	for _, s := range recipeFuzzSeeds {
		f.Add([]byte(s))
	}
	f.Setenv(chrome.EnvChromePath, "/bin/false")
	f.Setenv(EnvMaxMemory, "64")
	opts := Options{Endpoint: chrome.Endpoint{URL: "ws://127.0.0.1:1/devtools/browser/fuzz"}, Stdlib: stdlib.FS}
	f.Fuzz(func(t *testing.T, src []byte) {
		const timeout = 2 * time.Second
		prog := Program{Name: "fuzz.star", Source: src, Timeout: timeout, StepTimeout: time.Second, MaxSteps: 2_000_000}
		start := time.Now()
		out := Run(context.Background(), prog, opts)
		if took := time.Since(start); took > timeout+watchdogGrace+5*time.Second {
			t.Errorf("the recipe answered after %s (timeout %s)", took, timeout)
		}
		data := out.JSON()
		if !json.Valid(data) || len(data) > MaxInlineOutput+64<<10 {
			t.Fatalf("the answer is not valid JSON or too large (%d bytes): %.500s", len(data), data)
		}
		if out.Status != StatusOK && (out.Error == nil || out.Error.Message == "") && len(out.Errors) == 0 {
			t.Fatalf("a failed recipe does not say why: %.1000s", data)
		}
	})
}
