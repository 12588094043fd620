package runtime

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// signupPage is a sign-up form whose fields answer focus: the email field
// fetches a hint and shows it in the status line; the password field
// shows its rules at once. Each handler counts its runs.
const signupPage = `<!doctype html><title>Sign up</title><header><a href="#">Home</a></header>
<main><h1>Create your account</h1><p role="status" id="hint">Fill in the form</p>
<label>Email <input id="email" onfocus="runs.email++; fetch('hint.json').then(r => r.json()).then(d => { hint.textContent = d.hint })"></label>
<label>Password <input id="pw" type="password" onfocus="runs.pw++; hint.textContent = 'At least 12 characters'"></label>
<label>Terms <input id="terms" onfocus="runs.terms++; window.open('terms.html')"></label>
<button>Sign up</button></main><script>window.runs = {email: 0, pw: 0, terms: 0}</script>`

// A focus step reports what the page's focus handlers changed, also what
// they render after a request, and each ran once; as the one step of a
// command (its capture taken as it settles) and in a longer one.
func TestFocusReportsWhatItsHandlersChanged(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "hint.json") {
			time.Sleep(50 * time.Millisecond)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"hint": "We never share your email"}`))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(signupPage))
	}))
	run := pooledFinishing(t)
	open := run(`{"steps":[{"openTab":"` + base + `signup.html"}]}`)
	defer run(`{"steps":[{"closeTab":"` + open.Tab + `"}]}`)
	tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
	for _, c := range []struct{ steps, want string }{
		{`{"focus":"#email"}`, "~ status: We never share your email (was: Fill in the form)"},
		{`{"focus":{"label":"Password"}},{"sleep":0}`, "~ status: At least 12 characters (was: We never share your email)"},
	} {
		out := run(tab + c.steps + `]}`)
		if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), c.want) {
			t.Errorf("%s: changes = %s, want %q", c.steps, jsonString(out.Changes), c.want)
		}
	}
	got := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"[runs.email, runs.pw, document.activeElement.id].join()"}]}`)
	if s := jsonString(got.Steps[0].Output); s != `"1,1,pw"` {
		t.Errorf("focus handlers ran %s times (email, password, focused)", s)
	}
}

// A focus whose handler opens a tab reports the tab with an alias, as a
// click does, and the handler ran once.
func TestFocusThatOpensATab(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if strings.HasSuffix(r.URL.Path, "terms.html") {
			w.Write([]byte(`<!doctype html><title>Terms</title><h1>Terms</h1>`))
			return
		}
		w.Write([]byte(signupPage))
	}))
	run := pooledFinishing(t)
	open := run(`{"steps":[{"openTab":"` + base + `signup.html"}]}`)
	defer run(`{"steps":[{"closeTab":"` + open.Tab + `"}]}`)
	out := run(`{"tab":"` + open.Tab + `","steps":[{"focus":"#terms"}]}`)
	closeNewTab(t, out)
	nt, _ := stepOutput(t, out, 0)["newTabs"].([]any)
	if first, _ := nt[0].(map[string]any); first["tab"] == nil || first["tab"] == "" {
		t.Errorf("the tab the focus opened has no alias: %s", jsonString(nt))
	}
	got := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"runs.terms"}]}`)
	if s := jsonString(got.Steps[0].Output); s != "1" {
		t.Errorf("the focus handler that opens a tab ran %s times", s)
	}
}
