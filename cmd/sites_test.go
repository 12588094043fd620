package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

const sitePages = `<!doctype html><title>Late site</title><main>
<form action="welcome.html"><label>Email <input name="email"></label><button>Log in</button></form>
<button id="load" onclick="window.loading = true; setTimeout(() => { const p = document.createElement('p'); p.id = 'late-done'; p.textContent = 'loaded late'; document.querySelector('main').append(p); window.loading = false; }, 600)">Load</button>
</main>`

const siteRecipes = `
# Every action on this site waits until the page has finished loading its
# late content.
defaults = {"settled_when": "() => !window.loading"}

def login(email):
    """Log in and return the welcome text."""
    fill(label = "Email", value = email)
    click(text = "Log in")
    wait("#welcome")
    return text("#welcome")

def broken():
    click(text = "No such button", timeout = 300)

def elsewhere(url):
    goto(url)
    click("#nosuch", timeout = 300)
`

func siteServer(t *testing.T) string {
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if strings.HasSuffix(r.URL.Path, "welcome.html") {
			w.Write([]byte(`<title>Welcome</title><main><p id="welcome">Welcome, ` + r.URL.Query().Get("email") + `</p></main>`))
			return
		}
		w.Write([]byte(sitePages))
	}))
}

func TestSiteProfileRecipes(t *testing.T) {
	browsertest.Require(t)
	sites := t.TempDir()
	t.Setenv(state.EnvSitesDir, sites)
	base := siteServer(t)
	dir := t.TempDir()

	// Before a profile exists, the first navigation of the tab to the
	// domain asks for one (spec §15.3: actionRequired, with a ready step
	// in nextActions); later ones do not repeat it.
	open := cli(t, dir, nil, `{"steps":[{"openTab":"`+base+`index.html"}]}`)
	tab, _ := open.field("tab").(string)
	closeTab(t, tab)
	if open.field("actionRequired", "action") != "createSiteProfile" || open.field("actionRequired", "domain") != "127.0.0.1" ||
		!strings.Contains(fmt.Sprint(open.field("actionRequired", "message")), "writeSiteProfile") {
		t.Fatalf("no actionRequired for a site without a profile: %s", open.stdout)
	}
	if open.field("nextActions", "0", "step", "writeSiteProfile", "domain") != "127.0.0.1" {
		t.Fatalf("profile template: %s", open.stdout)
	}
	again := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`index.html?again"}]}`)
	if strings.Contains(string(again.stdout), "writeSiteProfile") || strings.Contains(string(again.stdout), "actionRequired") {
		t.Fatalf("the request was repeated: %s", again.stdout)
	}

	recipesJSON, _ := json.Marshal(siteRecipes)
	w := cli(t, dir, nil, `{"steps":[{"writeSiteProfile":{"domain":"www.127.0.0.1","content":"# Late site\nContent settles late.","recipes":`+string(recipesJSON)+`}}]}`)
	if w.code != 0 || w.field("steps", "0", "output", "domain") != "127.0.0.1" {
		t.Fatalf("write: %s", w.stdout)
	}

	// Navigating to the domain returns the profile with its recipes.
	nav := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`index.html"}]}`)
	recipes, _ := json.Marshal(nav.field("siteProfile", "recipes"))
	if nav.field("siteProfile", "content") != "# Late site\nContent settles late." || !strings.Contains(string(recipes), `"name":"login","params":["email"]`) || nav.field("siteProfile", "defaults") != true {
		t.Fatalf("profile on navigation: %s", nav.stdout)
	}
	// The tab has seen it: later navigations carry its path and recipe
	// names, not the content again.
	nav2 := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`index.html?2"}]}`)
	recipes, _ = json.Marshal(nav2.field("siteProfile", "recipes"))
	if nav2.field("siteProfile", "content") != nil || nav2.field("siteProfile", "path") == nil || !strings.Contains(string(recipes), `"name":"login"`) {
		t.Fatalf("profile on a later navigation: %s", nav2.stdout)
	}

	// The domain default settled_when makes the click wait for the late
	// content, so the next step sees it.
	late := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"click":"#load"},{"pageFunction":"document.getElementById('late-done')?.textContent ?? null"}]}`)
	if late.field("steps", "1", "output") != "loaded late" {
		t.Fatalf("domain default not applied: %s", late.stdout)
	}

	// The recipe runs the same from a JSON step, a .star file and the CLI.
	want := "Welcome, ann@example.com"
	step := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`index.html"},{"recipe":{"site":"127.0.0.1","name":"login","args":{"email":"ann@example.com"}}}]}`)
	if step.field("steps", "1", "output", "result") != want {
		t.Fatalf("JSON recipe step: %s", step.stdout)
	}
	star := filepath.Join(dir, "use.star")
	os.WriteFile(star, []byte(`load("@site/127.0.0.1", "login")
goto(args["base"] + "index.html")
result = login(args["email"])
`), 0o644)
	fromStar := cli(t, dir, nil, "run", star, "--tab", tab, "--arg", "base="+base, "--arg", "email=ann@example.com")
	if fromStar.field("result") != want {
		t.Fatalf(".star recipe: %s", fromStar.stdout)
	}
	cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"goto":"`+base+`index.html"}]}`)
	fromCLI := cli(t, dir, nil, "recipe", "127.0.0.1", "login", "--tab", tab, "--arg", "email=ann@example.com")
	if fromCLI.field("result") != want {
		t.Fatalf("CLI recipe: %s", fromCLI.stdout)
	}

	// A failing recipe names its own file and line.
	bad := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"recipe":"127.0.0.1/broken"}]}`)
	recipeFile := filepath.Join(sites, "127.0.0.1.star")
	if bad.code != 1 || !strings.Contains(string(bad.stdout), recipeFile+":14") {
		t.Fatalf("failing recipe: %s", bad.stdout)
	}
	// A recipe that goes to a page and misses there: its page loaded no
	// new document under the click (the recipe's own goto came first).
	away := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"recipe":{"site":"127.0.0.1","name":"elsewhere","args":{"url":"`+base+`index.html?away"}}}]}`)
	if away.code != 1 || !strings.Contains(string(away.stdout), "#nosuch") || strings.Contains(string(away.stdout), "meanwhile") {
		t.Fatalf("a recipe that navigates, then misses: %s", away.stdout)
	}
	missing := cli(t, dir, nil, `{"tab":"`+tab+`","steps":[{"recipe":"127.0.0.1/logout"}]}`)
	if !strings.Contains(string(missing.stdout), "its recipes: broken, elsewhere, login") {
		t.Fatalf("unknown recipe: %s", missing.stdout)
	}
}

func TestSiteProfileDomainsAndSandbox(t *testing.T) {
	sites := t.TempDir()
	t.Setenv(state.EnvSitesDir, sites)
	dir := t.TempDir()
	for _, d := range []string{"../../etc", "a/b", "..", `evil\x00.com`, "/etc/passwd"} {
		data, _ := json.Marshal(d)
		r := cli(t, dir, nil, `{"steps":[{"writeSiteProfile":{"domain":`+string(data)+`,"content":"x"}}]}`)
		if r.code != 1 || r.field("steps", "0", "errorType") != "StepValidationError" {
			t.Errorf("domain %q: %s", d, r.stdout)
		}
	}
	r := cli(t, dir, nil, "recipe", "../../etc", "x")
	if r.code != 1 || r.field("error", "type") != "VALIDATION" {
		t.Errorf("CLI traversal: %s", r.stdout)
	}
	entries, _ := os.ReadDir(sites)
	if len(entries) != 0 {
		t.Fatalf("files written: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(sites)), "etc.md")); err == nil {
		t.Fatal("a profile escaped the sites dir")
	}
	// Recipes that reach for files are refused before they are saved.
	for _, src := range []string{`load("../secrets.star", "x")`, `load("/etc/x.star", "x")`, `def f(:`} {
		data, _ := json.Marshal(src)
		r := cli(t, dir, nil, `{"steps":[{"writeSiteProfile":{"domain":"ok.test","content":"x","recipes":`+string(data)+`}}]}`)
		if r.code != 1 || !strings.Contains(string(r.stdout), "nothing was saved") {
			t.Errorf("recipes %q: %s", src, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(sites, "ok.test.md")); err == nil {
		t.Error("a profile with bad recipes was saved")
	}
	read := cli(t, dir, nil, `{"steps":[{"readSiteProfile":"nothing.test"}]}`)
	if read.field("steps", "0", "output", "found") != false {
		t.Errorf("read missing: %s", read.stdout)
	}
}
