package runtime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser"
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
	t.Setenv(browser.OutputDirEnv, "")
	t.Setenv(EnvStrict, "0")
	if e := ReadEnvironment(); e.OutputDir != "" || e.Strict {
		t.Errorf("unset: %+v", e)
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
