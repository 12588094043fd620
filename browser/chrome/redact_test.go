package chrome

import (
	"strings"
	"testing"
)

// TestRedactURL: credentials in query parameters and userinfo are
// replaced; everything else is kept; Unredact gives back the full URL of
// an endpoint this process was given.
func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ws://127.0.0.1:3000?token=s3cret", "ws://127.0.0.1:3000?token=REDACTED"},
		{"ws://127.0.0.1:3000?token=s3cret&timeout=60000", "ws://127.0.0.1:3000?timeout=60000&token=REDACTED"},
		{"wss://cloud.example/chromium?apiKey=abc&launch=%7B%7D", "wss://cloud.example/chromium?apiKey=REDACTED&launch=%7B%7D"},
		{"ws://user:pw@host:9222/devtools/browser/x", "ws://user:REDACTED@host:9222/devtools/browser/x"},
		{"ws://127.0.0.1:9222/devtools/browser/abc", "ws://127.0.0.1:9222/devtools/browser/abc"},
		{"http://127.0.0.1:9222", "http://127.0.0.1:9222"},
	} {
		if got := RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
		ep := Endpoint{URL: c.in}
		if strings.Contains(ep.String(), "s3cret") || strings.Contains(ep.String(), ":pw@") {
			t.Errorf("String() shows a credential: %q", ep.String())
		}
	}
	full := "ws://127.0.0.1:3999?token=only-here"
	if Unredact(RedactURL(full)) == full {
		t.Fatal("Unredact knew an endpoint this process was never given")
	}
	Remember(Endpoint{URL: full})
	if got := Unredact(RedactURL(full)); got != full {
		t.Fatalf("Unredact = %q", got)
	}
	if got := (Endpoint{URL: full}).Scrub("dial " + full + ": refused"); strings.Contains(got, "only-here") {
		t.Fatalf("Scrub left the token: %q", got)
	}
}
