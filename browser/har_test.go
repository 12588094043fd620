package browser

import "testing"

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.test/x":                          "https://a.test/x",
		"https://a.test/x?page=2":                   "https://a.test/x?page=2",
		"https://a.test/cb?code=1&access_token=abc": "https://a.test/cb?access_token=%5Bredacted%5D&code=1",
		"https://a.test/?sessionid=s1&q=tea":        "https://a.test/?q=tea&sessionid=%5Bredacted%5D",
		"https://a.test/?api_key=k&password=p":      "https://a.test/?api_key=%5Bredacted%5D&password=%5Bredacted%5D",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
