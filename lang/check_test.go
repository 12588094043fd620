package lang

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings, one per expected diagnostic
	}{
		{"clean", "goto(\"https://a\")\nr = page_function(\"1\")\nif r: wait(100)\n", nil},
		{"syntax", "goto(\"a\"\n", []string{"got end of file"}},
		{"undefined with suggestion", "gooto(\"a\")\n", []string{"undefined: gooto (did you mean goto?)"}},
		{"misspelled keyword", "goto(url = \"a\", wait_untill = \"load\")\n", []string{`goto has no keyword argument "wait_untill" (did you mean wait_until?)`}},
		{"camel keyword", "goto(url = \"a\", waitUntil = \"load\")\n", []string{`no keyword argument "waitUntil"`}},
		{"lifecycle keywords ok", "goto(\"a\", optional = True, timeout = 5, ready_when = \"1\", settled_when = \"1\", observe = \"1\")\n", nil},
		{"too many positional", "goto(\"a\", \"b\")\n", []string{"at most 1 positional"}},
		{"no positional", "back(\"x\")\n", []string{"back takes at most 0 positional"}},
		{"function kwargs", "attr(\"a\", nam = \"href\")\n", []string{`attr has no keyword argument "nam"`}},
		{"shadowed builtin is not checked", "def goto(**kw):\n    pass\ngoto(anything = 1)\n", nil},
		{"kwargs splat not checked", "goto(**{\"url\": \"a\"})\n", nil},
		{"args predeclared", "goto(args[\"url\"])\n", nil},
		{"load missing module", "load(\"@stdlib/nope.star\", \"x\")\n", []string{"no stdlib module"}},
		{"load missing symbol", "load(\"@stdlib/lib.star\", \"nothere\")\n", []string{`defines no "nothere"`}},
		{"load ok", "load(\"@stdlib/lib.star\", \"helper\")\nhelper()\n", nil},
		{"load outside dir", "load(\"../x.star\", \"a\")\n", []string{"recipe's directory or below"}},
	}
	res := &Resolver{Dir: t.TempDir(), Stdlib: fstest.MapFS{"lib.star": {Data: []byte("def helper():\n    pass\n")}}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := Check("r.star", []byte(tt.src), res)
			if len(diags) != len(tt.want) {
				t.Fatalf("diagnostics = %v, want %d", diags, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(diags[i].Message, w) {
					t.Errorf("diagnostic %q does not contain %q", diags[i], w)
				}
				if !strings.HasPrefix(diags[i].Pos, "r.star:") {
					t.Errorf("position %q lacks file:line", diags[i].Pos)
				}
			}
		})
	}
}
