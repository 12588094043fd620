package runtime

import (
	"strings"
	"testing"
)

func TestMaskSecretParams(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"url":"http://a/login?user=bo&password=hunter2"`, `"url":"http://a/login?user=bo&password=***"`},
		{`"url":"http://a/cb#access_token=eyJ.x.y&state=1"`, `"url":"http://a/cb#access_token=***&state=1"`},
		{`"url":"http://a/?Token=abc"`, `"url":"http://a/?Token=***"`},
		{`link "x" /url: /reset?pwd=p%40ss and more`, `link "x" /url: /reset?pwd=*** and more`},
		{`"url":"http://a/?passage=long&q=password"`, `"url":"http://a/?passage=long&q=password"`},
		{`no params here`, `no params here`},
		{`"url":"http://a/app;jsessionid=AB12?session=s3cr3t&sid=9&page=2"`, `"url":"http://a/app;jsessionid=***?session=***&sid=***&page=2"`},
		{`"url":"http://a/maps?key=AIza1&api-key=k2&q=x"`, `"url":"http://a/maps?key=***&api-key=***&q=x"`},
		{`"url":"http://a/?monkey=1&keyboard=2"`, `"url":"http://a/?monkey=1&keyboard=2"`},
	} {
		if got := string(maskSecretParams([]byte(tc.in))); got != tc.want {
			t.Errorf("mask(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestAnswersNeverPrintAPasswordFromTheURL submits a sign-in form that uses
// GET (the password lands in the page's URL): neither the answer's context
// and newUrl nor its snapshots print it.
func TestAnswersNeverPrintAPasswordFromTheURL(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`get-login.html"},{"fill":{"label":"Password","value":"hunter2-secret"}},{"click":"#go"}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	answer := string(out.JSON())
	if strings.Contains(answer, "hunter2-secret") || !strings.Contains(answer, `"url":"`+"http") || !strings.Contains(answer, "password=***\"") {
		t.Fatalf("the password from the URL is printed (or the URL was not masked): %s", answer)
	}
}
