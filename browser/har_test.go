package browser

import "testing"

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.test/x":                          "https://a.test/x",
		"https://a.test/x?page=2":                   "https://a.test/x?page=2",
		"https://a.test/cb?code=1&access_token=abc": "https://a.test/cb?code=1&access_token=***",
		"https://a.test/?sessionid=s1&q=tea#top":    "https://a.test/?sessionid=***&q=tea#top",
		"https://a.test/?api_key=k&password=p&x":    "https://a.test/?api_key=***&password=***&x",
		"https://a.test/?Auth%5FToken=t":            "https://a.test/?Auth%5FToken=***",
		"https://a.test/login?user=ann&pwd=x&pin=1": "https://a.test/login?user=ann&pwd=***&pin=***",
		"https://a.test/?pinned=1&spin=2":           "https://a.test/?pinned=1&spin=2",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
