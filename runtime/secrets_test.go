package runtime

import (
	"strings"
	"testing"
)

// TestSecretsStayOutOfAnswers (issue 31, item 11): no answer carries a
// password or key: not a value the server filled in (getDom, snapshot),
// not the value of a fill that failed (its params), not one filled into
// a field named like a key, not a session id in the URL.
func TestSecretsStayOutOfAnswers(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`secrets.html?session=SESSION-ID-31&sid=SID-31"},{"getDom":true},{"snapshot":true}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	tab := `{"tab":"` + out.Tab + `","steps":[`
	fail := runJSON(t, tab+`{"fill":{"selector":"#locked","value":"TYPED-PW-31"},"timeout":1000}]}`)
	if fail.OK() {
		t.Fatalf("a fill into a disabled field succeeded: %s", fail.JSON())
	}
	typed := runJSON(t, tab+`{"type":{"selector":"#locked","text":"TYPED-TYPE-31"},"timeout":1000}]}`)
	pipe := runJSON(t, tab+`{"pipeline":[{"find":"#missing","fill":"TYPED-PIPE-31"}],"timeout":1000}]}`)
	if typed.OK() || pipe.OK() {
		t.Fatalf("a type or pipeline fill into a disabled field succeeded: %s %s", typed.JSON(), pipe.JSON())
	}
	key := runJSON(t, tab+`{"fill":{"selector":"#deploy","value":"TYPED-KEY-31"}},{"pageFunction":"document.querySelector('#deploy').value === 'TYPED-KEY-31'"}]}`)
	mustOK(t, key)
	if got := jsonString(key.Steps[1].Output); got != "true" {
		t.Fatalf("the key was not filled: %s", key.JSON())
	}
	for i, o := range []*Output{out, fail, typed, pipe, key} {
		s := string(o.JSON())
		for _, secret := range []string{"PREFILLED-PW-31", "PREFILLED-KEY-31", "TYPED-PW-31", "TYPED-KEY-31", "TYPED-TYPE-31", "TYPED-PIPE-31", "SESSION-ID-31", "SID-31"} {
			if strings.Contains(s, secret) {
				t.Errorf("answer %d shows %s: %s", i+1, secret, s)
			}
		}
	}
}
