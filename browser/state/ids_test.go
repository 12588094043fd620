package state

import (
	"regexp"
	"strings"
	"testing"
)

// TestIsTargetID checks the written-out check against the pattern it
// replaced.
func TestIsTargetID(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"9A1B2C3D4E5F60718293A4B5C6D7E8F9", true},
		{"0b5c2f7e-4d1a-4f3e-9c8b-1a2b3c4d5e6f", true},
		{"t1", true},
		{"Z_-9", true},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
		{"", false},
		{"-x", false},
		{"_x", false},
		{"../../tmp/x", false},
		{"a.json", false},
		{"a/b", false},
		{"a b", false},
		{"é1", false},
		{"a\x00", false},
	} {
		if got := IsTargetID(c.in); got != c.want {
			t.Errorf("IsTargetID(%q) = %v, want %v", c.in, got, c.want)
		}
		if got := pattern.MatchString(c.in); got != c.want {
			t.Errorf("the old pattern says %v for %q", got, c.in)
		}
	}
}
