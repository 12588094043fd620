package builtins

import "testing"

// TestCutAtLine: a payload over the limit is cut at the last line break
// within it, or at the limit when a line is longer than that.
func TestCutAtLine(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"a\nbb\nccc\n", 6, "a\nbb"},
		{"a\nbb\nccc\n", 5, "a\nbb"},
		{"abcdef\ngh", 4, "abcd"},
		{"\nabcdef", 3, "\nab"},
	} {
		if got := CutAtLine(tc.s, tc.n); got != tc.want {
			t.Errorf("CutAtLine(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
