package traffic

import "testing"

// TestDescribeMatch: the timeout message names each part of a response
// wait as the agent wrote it; a regex with slashes is quoted, not put
// between slashes (which read as "//api/items/[0-9]+/").
func TestDescribeMatch(t *testing.T) {
	for _, c := range []struct {
		w    ResponseWait
		want string
	}{
		{ResponseWait{}, "anything"},
		{ResponseWait{URL: "/api/items"}, `"/api/items"`},
		{ResponseWait{URLRegex: "/api/items/[0-9]+"}, `urlRegex "/api/items/[0-9]+"`},
		{ResponseWait{URL: "*/cart", Method: "POST", Status: "2xx"}, `"*/cart", method POST, status 2xx`},
	} {
		if got := describeMatch(c.w); got != c.want {
			t.Errorf("describeMatch(%+v) = %s, want %s", c.w, got, c.want)
		}
	}
}
