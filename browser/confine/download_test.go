package confine

import (
	"strings"
	"testing"
)

func TestSanitizeFilename(t *testing.T) {
	for in, want := range map[string]string{
		"report.csv":                      "report.csv",
		"../../etc/passwd":                "passwd",
		`..\..\.bashrc`:                   "bashrc",
		".env":                            "env",
		"a\x00b\nc.txt":                   "a_b_c.txt",
		`what?.pdf`:                       "what_.pdf",
		"":                                "download",
		"...":                             "download",
		strings.Repeat("x", 300) + ".zip": strings.Repeat("x", 116) + ".zip",
	} {
		if got := SanitizeFilename(in); got != want {
			t.Errorf("SanitizeFilename(%q) = %q, want %q", in, got, want)
		}
	}
}
