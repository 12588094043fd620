package lang

import (
	"errors"
	"strings"
	"testing"
)

// fuzzSeeds are commands of every shape: valid ones, and the hostile
// inputs of issue 17 (deep nesting, bad numbers, path-like tabs).
var fuzzSeeds = []string{
	`{"steps":[{"goto":"https://example.com"}]}`,
	`{"tab":"t1","timeout":5000,"steps":[{"click":{"text":"Go","timeout":300}},{"fill":{"#a":"x","#b":"y"}},{"snapshot":true}]}`,
	`{"steps":[{"pipeline":[{"find":"#email","fill":"a@b.c"},{"find":"form button","click":true}]}]}`,
	`{"steps":[{"pageFunction":{"fn":"(a) => a","args":[[1,[2,[3]]],{"k":null}]}}],"capture":{"screenshot":false}}`,
	`{"steps":[{"wait":1e15}]}`,
	`{"timeout":1e300,"steps":[{"wait":10}]}`,
	`{"timeout":0.5,"steps":[{"wait":10}]}`,
	`{"tab":"../../../../tmp/x","steps":[{"snapshot":true}]}`,
	`{"steps":[{"click":{"x":1e308,"y":1}}]}`,
	`{"steps":[{"openTab":"file:///etc/passwd"}]}`,
	`{"steps":[` + strings.Repeat(`[`, 300) + strings.Repeat(`]`, 300) + `]}`,
	`{"steps":[{"pipeline":` + strings.Repeat(`[{"find":"a","pipeline":`, 50) + `1` + strings.Repeat(`}]`, 50) + `}]}`,
	// The deepest command allowed: it must still lower to Starlark that parses.
	`{"steps":[{"pipeline":` + strings.Repeat(`[{"find":"a","pipeline":`, (MaxCommandNesting-4)/2) + `[[1]]` + strings.Repeat(`}]`, (MaxCommandNesting-4)/2) + `}]}`,
	`{"steps":[{"goto":"a"},{"a":1}],"x":[}`,
	`{"steps":[{"fill":{"\"x\\\n":"'''\"\"\"\\u0000"}}]}`,
}

// FuzzParseRequest checks that any input parses to a request or a PARSE
// or VALIDATION error, never a panic, and that a valid request lowers to
// Starlark that parses.
func FuzzParseRequest(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := ParseRequest(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (e.Type != ErrParse && e.Type != ErrValidation) || e.Message == "" {
				t.Fatalf("error %T %v is not a PARSE/VALIDATION error", err, err)
			}
			return
		}
		src, err := Lower(req)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Type != ErrValidation {
				t.Fatalf("lowering failed with %T %v", err, err)
			}
			return
		}
		if _, err := FileOptions.Parse("lowered.star", []byte(src), 0); err != nil {
			t.Fatalf("the lowered program does not parse: %v\n%s", err, src)
		}
	})
}

// FuzzDecodeJSON checks that decoding never panics or overflows the stack.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat(`{"a":`, MaxNesting+5)))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeJSON(data)
		if err == nil {
			literal(v)
		}
	})
}

// FuzzCheck checks that static checking of any recipe text answers with
// diagnostics, never a panic.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"click(text = 'Go')\nfill('#a', 'x')\n",
		"def f(x):\n    return f(x)\nresult = f(1)\n",
		"x = []\nx.append(x)\nresult = x\n",
		"load('@stdlib/forms.star', 'login')\nlogin(user = 'a')\n",
		"for i in range(10):\n  snapshot(since = i\n",
		"goto(url = 'https://a', timeout = 1e300, wait_until = 'load')\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, d := range Check("r.star", src, nil) {
			if d.Message == "" {
				t.Fatalf("a diagnostic without message at %s", d.Pos)
			}
		}
	})
}

// TestNestingBound decodes data at and beyond MaxNesting.
func TestNestingBound(t *testing.T) {
	for _, tc := range []struct {
		depth int
		ok    bool
	}{{MaxNesting, true}, {MaxNesting + 1, false}, {4_000_000, false}} {
		data := strings.Repeat("[", tc.depth) + strings.Repeat("]", tc.depth)
		_, err := DecodeJSON([]byte(data))
		if tc.ok != (err == nil) || !tc.ok && !errors.Is(err, ErrTooDeep) {
			t.Errorf("depth %d: %v", tc.depth, err)
		}
	}
}
