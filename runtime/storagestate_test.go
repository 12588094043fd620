package runtime

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// Secrets of the sign-in fixture; no answer may show them.
const (
	sidSecret   = "sid-9f8e7d6c5b4a"
	tokenSecret = "tok-1a2b3c4d5e6f"
)

// signInSite is a site that signs in like a real one: /login sets an
// HttpOnly session cookie and the page stores a token in localStorage and
// a cart in sessionStorage; /account greets only a request with the
// cookie, and its script reads the token.
func signInSite(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, _ *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "ss_sid", Value: sidSecret, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
		w.Write([]byte(`<!doctype html><title>Signed in</title><script>
localStorage.setItem('ss_token', '` + tokenSecret + `'); sessionStorage.setItem('ss_cart', '3');
</script><h1>Welcome</h1>`))
	})
	mux.HandleFunc("/account", func(w http.ResponseWriter, r *http.Request) {
		who := "signed out"
		if c, err := r.Cookie("ss_sid"); err == nil && c.Value == sidSecret {
			who = "ann"
		}
		w.Write([]byte(`<!doctype html><title>Account</title><h1 id="who">` + who + `</h1><p id="token"></p>
<script>document.getElementById('token').textContent = localStorage.getItem('ss_token') === '` + tokenSecret + `' ? 'token ok' : 'no token';</script>`))
	})
	return browsertest.ServeHandler(t, mux)
}

// noSecrets fails when an answer shows a cookie or token value.
func noSecrets(t *testing.T, out *Output) {
	t.Helper()
	if s := string(out.JSON()); strings.Contains(s, sidSecret) || strings.Contains(s, tokenSecret) {
		t.Fatalf("the answer shows a secret: %s", s)
	}
}

// signOut removes the fixture's cookie and storage from the browser.
const signOut = `{"cookies":{"clear":{"name":"ss_sid","domain":"127.0.0.1"}}},{"pageFunction":"localStorage.clear(), sessionStorage.clear()"}`

func TestStorageStateSaveThenLoadSignsIn(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	base := signInSite(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`login"},{"storageState":{"save":"auth/state.json"}},`+signOut+`,{"goto":"`+base+`account"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	noSecrets(t, out)
	saved := stepOutput(t, out, 1)
	path := filepath.Join(dir, "auth", "state.json")
	if saved["saved"] != path || saved["cookies"] != 1.0 || jsonString(saved["domains"]) != `["127.0.0.1"]` {
		t.Errorf("save output = %s", jsonString(saved))
	}
	mustContain(t, jsonString(saved["origins"]), `"localStorage":1`, `"sessionStorage":1`)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", fi, err)
	}
	var st struct {
		Cookies []map[string]any `json:"cookies"`
		Origins []struct {
			Origin       string              `json:"origin"`
			LocalStorage []map[string]string `json:"localStorage"`
		} `json:"origins"`
	}
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Cookies) != 1 || st.Cookies[0]["name"] != "ss_sid" || st.Cookies[0]["value"] != sidSecret || st.Cookies[0]["httpOnly"] != true ||
		st.Cookies[0]["expires"] != -1.0 || st.Cookies[0]["sameSite"] != "Lax" || st.Cookies[0]["domain"] != "127.0.0.1" {
		t.Errorf("cookies in the file = %v", st.Cookies)
	}
	if len(st.Origins) != 1 || st.Origins[0].Origin+"/" != base || len(st.Origins[0].LocalStorage) != 1 || st.Origins[0].LocalStorage[0]["value"] != tokenSecret {
		t.Errorf("origins in the file = %+v", st.Origins)
	}
	if who := readText(t, out.Tab, "#who"); who != "signed out" {
		t.Fatalf("after signing out the page says %q", who)
	}

	out = runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"storageState":{"load":"auth/state.json"}},{"reload":true}]}`)
	mustOK(t, out)
	noSecrets(t, out)
	if loaded := stepOutput(t, out, 0); loaded["loaded"] != path || loaded["cookies"] != 1.0 || loaded["skippedOrigins"] != nil {
		t.Errorf("load output = %s", jsonString(loaded))
	}
	if who, token := readText(t, out.Tab, "#who"), readText(t, out.Tab, "#token"); who != "ann" || token != "token ok" {
		t.Fatalf("after load the page says %q, %q", who, token)
	}
	runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+signOut+`]}`)
}

// TestStorageStateLoadsPlaywrightFiles: a file in the shape Playwright's
// storageState() writes (no sessionStorage) signs in; storage of an origin
// the tab does not show is reported as skipped, not lost silently.
func TestStorageStateLoadsPlaywrightFiles(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	base := signInSite(t)
	origin := strings.TrimSuffix(base, "/")
	pw := `{"cookies":[{"name":"ss_sid","value":"` + sidSecret + `","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"secure":false,"sameSite":"Lax"}],
"origins":[{"origin":"` + origin + `","localStorage":[{"name":"ss_token","value":"` + tokenSecret + `"}]},{"origin":"https://other.example","localStorage":[{"name":"k","value":"v"}]}]}`
	os.WriteFile(filepath.Join(dir, "pw.json"), []byte(pw), 0o600)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`account"},{"storageState":{"load":"pw.json"}},{"reload":true}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	noSecrets(t, out)
	loaded := stepOutput(t, out, 1)
	if jsonString(loaded["skippedOrigins"]) != `["https://other.example"]` || !strings.Contains(strings.Join(out.Steps[1].Warning, " "), "other.example") {
		t.Errorf("load output = %s, warnings %v", jsonString(loaded), out.Steps[1].Warning)
	}
	if who, token := readText(t, out.Tab, "#who"), readText(t, out.Tab, "#token"); who != "ann" || token != "token ok" {
		t.Fatalf("after load the page says %q, %q", who, token)
	}
	runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+signOut+`]}`)
}

func TestStorageStatePathsAreConfined(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.json"), []byte(`{"cookies":[],"origins":[]}`), 0o600)
	os.Symlink(filepath.Join(outside, "x.json"), filepath.Join(dir, "link.json"))
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`not json`), 0o600)
	base := signInSite(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`account"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	cases := []struct{ step, want string }{
		{`{"storageState":{"save":"../x.json"}}`, "outside the output directory"},
		{`{"storageState":{"save":"` + filepath.Join(outside, "y.json") + `"}}`, "outside the output directory"},
		{`{"storageState":{"save":"out/y.json"}}`, "symbolic link outside"},
		{`{"storageState":{"load":"link.json"}}`, "symbolic link outside"},
		{`{"storageState":{"save":".auth.json"}}`, "hidden"},
		{`{"storageState":{"save":"auth.txt"}}`, "must end in .json"},
		{`{"storageState":{"load":"missing.json"}}`, "no file"},
		{`{"storageState":{"load":"bad.json"}}`, "not a storage-state file"},
		{`{"storageState":{"save":"a.json","load":"a.json"}}`, "one of save or load"},
		{`{"storageState":true}`, "one of save or load"},
		{`{"storageState":{"load":"a.json","allCookies":true}}`, "all_cookies applies to save"},
	}
	for _, c := range cases {
		out := runJSON(t, `{"tab":"`+open.Tab+`","steps":[`+c.step+`]}`)
		if out.OK() || len(out.Steps) != 1 || out.Steps[0].ErrorType != "StepValidationError" || !strings.Contains(out.Steps[0].Error, c.want) {
			t.Errorf("%s: want a validation error containing %q, got %s", c.step, c.want, out.JSON())
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "y.json")); err == nil {
		t.Error("a file was written outside the output directory")
	}
}

// readText reads an element's text in tab.
func readText(t *testing.T, tab, selector string) string {
	t.Helper()
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"pageFunction":"document.querySelector('`+selector+`').textContent"}]}`)
	mustOK(t, out)
	s, _ := out.Steps[0].Output.(string)
	return s
}
