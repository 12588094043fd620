package builtins

import "testing"

// TestNamesAnElement: which capture paths read as an element (refused)
// and which as file names.
func TestNamesAnElement(t *testing.T) {
	for path, want := range map[string]bool{
		"s1e4": true, "#chart": true, " #chart": true, "input#email": true, "button[type=submit]": true,
		"chart.png": false, "report#1.png": false, "shots/page": false, "page": false, "a[1].pdf": false,
	} {
		if got := namesAnElement(path); got != want {
			t.Errorf("namesAnElement(%q) = %v, want %v", path, got, want)
		}
	}
}
