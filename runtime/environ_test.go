package runtime

import (
	"os"
	"path/filepath"
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
