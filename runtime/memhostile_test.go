package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// memChildEnv, set in the environment of the test binary, makes it run the
// recipes it holds (separated by memChildSep) at once, print their answers
// as a JSON array and exit, without Chrome: the memory tests run it under
// an address-space cap, so a recipe that escapes the budget kills only
// that child (Go's out-of-memory is fatal) and the test sees it.
const (
	memChildEnv = "CDP_SKILL_TEST_MEMORY_CHILD"
	memChildSep = "\n#----\n"
)

// memChild runs the recipes of the environment concurrently and prints
// their outputs.
func memChild(recipes string) int {
	srcs := strings.Split(recipes, memChildSep)
	outs := make([]*Output, len(srcs))
	var wg sync.WaitGroup
	for i, src := range srcs {
		wg.Go(func() {
			prog := Program{Name: fmt.Sprintf("recipe%d.star", i), Source: []byte(src), Timeout: 60 * time.Second, MaxSteps: 1 << 40}
			outs[i] = Run(context.Background(), prog, Options{})
		})
	}
	wg.Wait()
	if err := json.NewEncoder(os.Stdout).Encode(outs); err != nil {
		return 3
	}
	return 0
}

// runCapped runs recipes in a child test binary limited to 3 GiB of
// address space with a 64 MiB memory budget, and returns their answers.
func runCapped(t *testing.T, recipes ...string) []Output {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `ulimit -v 3145728 && exec "$0"`, os.Args[0])
	cmd.Env = append(os.Environ(), memChildEnv+"="+strings.Join(recipes, memChildSep), EnvMaxMemory+"=64")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("the process running the recipes died (%v): %.2000s", err, stderr.String())
	}
	var outs []Output
	if err := json.Unmarshal(raw, &outs); err != nil {
		t.Fatalf("answers: %v: %.2000s", err, raw)
	}
	return outs
}

// TestOneLineRecipesCannotExhaustMemory (issue 31, Critical 1): a
// repetition of a billion elements, a range of two billion materialised,
// forty doublings of a string, a format or a join or a replace that
// multiplies its input — each is refused before the value is allocated,
// with an EXECUTION error that names the limit, well inside its timeout
// (not by it), and the process running them lives on.
func TestOneLineRecipesCannotExhaustMemory(t *testing.T) {
	for name, src := range map[string]string{
		"repeat":          "x = [0] * 1000000000\n",
		"range":           "x = list(range(2000000000))\n",
		"tuple of range":  "x = tuple(range(2000000000))\n",
		"sorted of range": "x = sorted(range(2000000000))\n",
		"doubling":        "s = 'x'\nfor i in range(40):\n    s = s + s\n",
		"augmented":       "s = 'x'\nfor i in range(40):\n    s += s\n",
		"list augmented":  "s = [1]\nfor i in range(40):\n    s += s\n",
		"list extend":     "s = [1]\nfor i in range(40):\n    s.extend(s)\n",
		"join":            "s = 'x' * 1000\nl = [s] * 10\nfor i in range(40):\n    s = s.join(l)\n",
		"replace":         "s = 'ab' * 10000\nfor i in range(40):\n    s = s.replace('a', s)\n",
		"percent":         "s = 'x' * 1000\nfor i in range(40):\n    s = '%s%s%s%s' % (s, s, s, s)\n",
		"format":          "s = 'x' * 1000\nfor i in range(40):\n    s = '{0}{0}{0}{0}'.format(s)\n",
		"shared str":      "x = [1]\nfor i in range(60):\n    x = [x, x]\ns = str(x)\n",
	} {
		t.Run(name, func(t *testing.T) {
			out := runCapped(t, src)[0]
			if out.Status != StatusError || len(out.Errors) != 1 || out.Errors[0].Type != TypeExecution ||
				!strings.Contains(out.Errors[0].Error, "would use more than 64 MiB of memory") || out.Errors[0].ErrorType != "" {
				b, _ := json.Marshal(out)
				t.Fatalf("a recipe that would exhaust memory: %.1500s", b)
			}
		})
	}
}

// TestMemoryHogDoesNotStopItsNeighbour: a program refused for memory does
// not take down, or cancel, a program running beside it in the same
// process (as in the resident).
func TestMemoryHogDoesNotStopItsNeighbour(t *testing.T) {
	innocent := "n = 0\nfor i in range(300000):\n    n += 1\nresult = n\n"
	outs := runCapped(t, "x = list(range(2000000000))\n", innocent, "s = 'x'\nfor i in range(40):\n    s = s + s\n")
	if outs[0].Status != StatusError || outs[2].Status != StatusError {
		t.Fatalf("the hogs were not stopped: %+v", outs)
	}
	if outs[1].Status != StatusOK || fmt.Sprint(outs[1].Result) != "300000" {
		b, _ := json.Marshal(outs[1])
		t.Fatalf("the innocent program beside the hogs: %s", b)
	}
}

// TestBudgetedOperatorsKeepTheirMeaning: the checked operators and
// methods give the results and errors Starlark's own give.
func TestBudgetedOperatorsKeepTheirMeaning(t *testing.T) {
	src := `a = [1]
b = a
b += [2]
d = {"k": [1]}
d["k"] += [3]
s = "x"
s += "y"
s *= 2
l = [0] * 3 + [1]
f = "%s-%d" % ("a", 4)
g = "{}+{k}".format(1, k=2)
j = ",".join(["a", "b"])
r = "aXa".replace("a", "bb")
p = "a b  c".split()
q = {"x": 1} | {"y": 2}
def add(x, y=1 + 1):
    return x + y
m = [x * 2 for x in range(3) if x % 2 == 0]
result = [a, d, s, l, f, g, j, r, p, q, add(1), m, list(range(3)), tuple("ab".elems()), sorted([3, 1])]
`
	out := runCapped(t, src, "x = 1 + 'a'\n", "x = 'a'.nosuch\n")
	b, _ := json.Marshal(out[0].Result)
	want := `[[1,2],{"k":[1,3]},"xyxy",[0,0,0,1],"a-4","1+2","a,b","bbXbb",["a","b","c"],{"x":1,"y":2},3,[0,4],[0,1,2],["a","b"],[1,3]]`
	if out[0].Status != StatusOK || string(b) != want {
		t.Fatalf("results: %s\nwant %s\n%+v", b, want, out[0])
	}
	for i, msg := range map[int]string{1: "unknown binary op: int + string", 2: "string has no .nosuch field or method"} {
		if len(out[i].Errors) != 1 || !strings.Contains(out[i].Errors[0].Error, msg) || !strings.Contains(out[i].Errors[0].Location, ":1:") {
			t.Fatalf("error %d: %+v", i, out[i])
		}
	}
}

// TestPrintOutputIsBounded (issue 31, item 8): print() of a large value
// keeps a bounded line in the answer's log that says it was cut, and the
// log as a whole stays bounded.
func TestPrintOutputIsBounded(t *testing.T) {
	src := "s = 'é' * 400000\nfor i in range(40):\n    print(s)\nprint('last')\n"
	out := runCapped(t, src)[0]
	total := 0
	for _, l := range out.Log {
		total += len(l)
	}
	if out.Status != StatusOK || len(out.Log) != 41 || len(out.Log[0]) > maxPrintLine+200 ||
		!strings.Contains(out.Log[0], "print output cut") || total > maxPrintTotal+41*200 || !utf8.ValidString(out.Log[0]) {
		t.Fatalf("printed %d lines, %d bytes: %.300v", len(out.Log), total, out.Log)
	}
}
