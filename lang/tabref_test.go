package lang

import (
	"regexp"
	"strings"
	"testing"
)

// TestIsTabRef checks the hand-written tab reference check against the
// pattern it replaces, on aliases, target ids and near misses.
func TestIsTabRef(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"t1", true},
		{"9A1B2C3D4E5F60718293A4B5C6D7E8F9", true},
		{"a", true},
		{"Z_-9", true},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
		{"", false},
		{"-t1", false},
		{"_t1", false},
		{"t 1", false},
		{"t1\n", false},
		{"t/1", false},
		{"t1.json", false},
		{"é1", false},
		{"t1\x00", false},
	} {
		if got := isTabRef(c.in); got != c.want {
			t.Errorf("isTabRef(%q) = %v, want %v", c.in, got, c.want)
		}
		if got := pattern.MatchString(c.in); got != c.want {
			t.Errorf("the original pattern says %v for %q; the table is wrong", got, c.in)
		}
	}
}
