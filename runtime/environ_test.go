package runtime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// TestReadEnvironment: the variables that configure a program are read in
// one place; relative directories become absolute, list entries are
// trimmed, and the working directory is always an upload directory.
func TestReadEnvironment(t *testing.T) {
	wd, _ := os.Getwd()
	up := t.TempDir()
	t.Setenv(browser.OutputDirEnv, " shots ")
	t.Setenv(browser.UploadDirsEnv, " "+up+string(os.PathListSeparator)+string(os.PathListSeparator)+"rel")
	t.Setenv(EnvStrict, "Yes")
	t.Setenv(EnvCapture, " compact ")
	t.Setenv(EnvMaxMemory, "64")
	t.Setenv(browser.FileDirsEnv, "pages")
	t.Setenv(browser.AllowSchemesEnv, " chrome, devtools ,")
	t.Setenv(browser.DownloadsEnv, " Allow ")
	t.Setenv(chrome.EnvChromePath, "/opt/chrome")
	t.Setenv("DISPLAY", ":1")
	e := ReadEnvironment()
	if e.OutputDir != filepath.Join(wd, "shots") {
		t.Errorf("OutputDir = %q", e.OutputDir)
	}
	if want := []string{wd, up, filepath.Join(wd, "rel")}; !slices.Equal(e.UploadDirs, want) {
		t.Errorf("UploadDirs = %q, want %q", e.UploadDirs, want)
	}
	if !slices.Equal(e.URLs.FileDirs, []string{filepath.Join(wd, "pages")}) || !slices.Equal(e.URLs.Schemes, []string{"chrome", "devtools"}) {
		t.Errorf("URLs = %+v", e.URLs)
	}
	if !e.Strict || e.Capture != "compact" || maxMemory(e.MaxMemoryMB) != 64<<20 {
		t.Errorf("Strict %v, Capture %q", e.Strict, e.Capture)
	}
	if !e.AllowDownloads || e.Chrome.Path != "/opt/chrome" || !e.Chrome.Display {
		t.Errorf("AllowDownloads %v, Chrome %+v", e.AllowDownloads, e.Chrome)
	}
	t.Setenv(browser.OutputDirEnv, "")
	t.Setenv(EnvStrict, "0")
	t.Setenv(browser.DownloadsEnv, "yes")
	t.Setenv(chrome.EnvChromePath, "")
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	e = ReadEnvironment()
	if e.OutputDir != "" || e.Strict || e.AllowDownloads || e.Chrome.Path != "" {
		t.Errorf("unset: %+v", e)
	}
	if hasDisplayAlways := goruntime.GOOS != "linux" && goruntime.GOOS != "freebsd"; e.Chrome.Display != hasDisplayAlways {
		t.Errorf("no DISPLAY on %s: Display = %v", goruntime.GOOS, e.Chrome.Display)
	}
}

// TestSetStateDirs: the state and site profile directories come from the
// environment when the command starts; unset, the defaults.
func TestSetStateDirs(t *testing.T) {
	state0, sites0 := state.Dir(), state.SitesDir()
	t.Cleanup(func() { state.SetDir(state0); state.SetSitesDir(sites0) })
	dir, sites := t.TempDir(), t.TempDir()
	t.Setenv(state.EnvDir, dir)
	t.Setenv(state.EnvSitesDir, sites)
	SetStateDirs()
	if state.Dir() != dir || state.SitesDir() != sites {
		t.Errorf("set: state %q, sites %q", state.Dir(), state.SitesDir())
	}
	t.Setenv(state.EnvDir, "")
	t.Setenv(state.EnvSitesDir, "")
	t.Setenv("XDG_RUNTIME_DIR", "")
	SetStateDirs()
	if state.Dir() != filepath.Join(os.TempDir(), "cdp-skill-"+strconv.Itoa(os.Getuid())) || !strings.HasSuffix(state.SitesDir(), filepath.Join(".cdp-skill", "sites")) {
		t.Errorf("unset: state %q, sites %q", state.Dir(), state.SitesDir())
	}
}

// TestEnvironmentVarsAreWhatIsRead: each variable of EnvironmentVars changes
// what ReadEnvironment returns, and the result survives the JSON trip a
// resident request takes, so a host that takes the Environment per request
// answers as one reading its own environment would.
func TestEnvironmentVarsAreWhatIsRead(t *testing.T) {
	values := map[string]string{EnvCapture: "compact", EnvMaxMemory: "64", EnvStrict: "1",
		browser.OutputDirEnv: "shots", browser.UploadDirsEnv: "up", browser.FileDirsEnv: "pages", browser.AllowSchemesEnv: "chrome"}
	for _, name := range EnvironmentVars {
		t.Setenv(name, "")
	}
	empty := ReadEnvironment()
	for _, name := range EnvironmentVars {
		v, ok := values[name]
		if !ok {
			t.Fatalf("no test value for %s", name)
		}
		t.Setenv(name, v)
		if reflect.DeepEqual(ReadEnvironment(), empty) {
			t.Errorf("%s=%s does not change ReadEnvironment", name, v)
		}
	}
	e := ReadEnvironment()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Environment
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, e) {
		t.Errorf("Environment after JSON = %+v (%v), want %+v", back, err, e)
	}
}
