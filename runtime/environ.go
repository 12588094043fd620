package runtime

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// EnvStrict names the variable that turns strict mode on for every command
// (the same as "strict": true in each): no automatic fallbacks in actions.
const EnvStrict = "CDP_SKILL_STRICT"

// Environment is what the process environment configures for a program.
// It is read here, once per program, and passed down: package browser
// (and chrome, state) reads no environment variable.
type Environment struct {
	// OutputDir is where named screenshots and PDFs go
	// (CDP_SKILL_OUTPUT_DIR, absolute; "" = the working directory).
	OutputDir string
	// UploadDirs are the directories upload may read from: the working
	// directory and those listed in CDP_SKILL_UPLOAD_DIRS.
	UploadDirs []string
	// Strict is CDP_SKILL_STRICT: 1, true or yes.
	Strict bool
	// Capture is CDP_SKILL_CAPTURE: a preset name or JSON settings.
	Capture string
	// MaxMemoryMB is CDP_SKILL_MAX_MEMORY_MB, as written.
	MaxMemoryMB string
	// URLs are the local URLs goto and openTab may open: the directories of
	// CDP_SKILL_FILE_DIRS (absolute) and the schemes of
	// CDP_SKILL_ALLOW_SCHEMES.
	URLs browser.URLPolicy
	// Chrome is CHROME_PATH, whether there is a display (DISPLAY,
	// WAYLAND_DISPLAY) and, on Windows, where programs are installed.
	Chrome chrome.Host
	// AllowDownloads is CDP_SKILL_DOWNLOADS=allow: pages may download
	// files.
	AllowDownloads bool
}

// SetStateDirs sets the process's state and site profile directories from
// CDP_SKILL_STATE_DIR and CDP_SKILL_SITES_DIR (unset: the defaults, the
// state dir under XDG_RUNTIME_DIR when that is set). The command calls it
// once before anything reads them.
func SetStateDirs() {
	state.SetRuntimeDir(os.Getenv("XDG_RUNTIME_DIR"))
	state.SetDir(os.Getenv(state.EnvDir))
	state.SetSitesDir(os.Getenv(state.EnvSitesDir))
}

// EnvironmentVars are the variables ReadEnvironment reads. A host that runs
// programs for other processes (the resident process) takes their values
// from each request (Options.Environment) instead of its own environment.
var EnvironmentVars = []string{EnvCapture, EnvMaxMemory, EnvStrict,
	browser.OutputDirEnv, browser.UploadDirsEnv, browser.FileDirsEnv, browser.AllowSchemesEnv}

// ReadEnvironment reads the process environment.
func ReadEnvironment() Environment {
	e := Environment{Capture: strings.TrimSpace(os.Getenv(EnvCapture)), MaxMemoryMB: os.Getenv(EnvMaxMemory)}
	if d := strings.TrimSpace(os.Getenv(browser.OutputDirEnv)); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			e.OutputDir = abs
		}
	}
	if wd, err := os.Getwd(); err == nil {
		e.UploadDirs = append(e.UploadDirs, wd)
	}
	e.UploadDirs = append(e.UploadDirs, absDirs(os.Getenv(browser.UploadDirsEnv))...)
	e.URLs.FileDirs = absDirs(os.Getenv(browser.FileDirsEnv))
	for _, s := range strings.Split(os.Getenv(browser.AllowSchemesEnv), ",") {
		if s = strings.TrimSpace(s); s != "" {
			e.URLs.Schemes = append(e.URLs.Schemes, s)
		}
	}
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvStrict))) {
	case "1", "true", "yes":
		e.Strict = true
	}
	e.UseOwnProcess()
	return e
}

// UseOwnProcess sets what belongs to the process that runs the program
// rather than to the request: which Chrome it launches (CHROME_PATH, the
// display Chrome would get) and whether its pages may download
// (CDP_SKILL_DOWNLOADS). A resident process keeps its own: CHROME_PATH and
// CDP_SKILL_DOWNLOADS are part of its identity (cmd's residentEnv), and a
// Chrome it launches gets its display.
func (e *Environment) UseOwnProcess() {
	e.AllowDownloads = strings.EqualFold(strings.TrimSpace(os.Getenv(browser.DownloadsEnv)), "allow")
	e.Chrome = readChromeHost()
}

// readChromeHost reads which Chrome to launch and whether a display is
// there (only Linux and FreeBSD may lack one).
func readChromeHost() chrome.Host {
	h := chrome.Host{Path: os.Getenv(chrome.EnvChromePath), Display: true}
	if goruntime.GOOS == "linux" || goruntime.GOOS == "freebsd" {
		h.Display = os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
	}
	if goruntime.GOOS == "windows" {
		for _, name := range []string{"LOCALAPPDATA", "PROGRAMFILES", "PROGRAMFILES(X86)"} {
			if d := os.Getenv(name); d != "" {
				h.ProgramDirs = append(h.ProgramDirs, d)
			}
		}
	}
	return h
}

// absDirs reads a list of directories (separated by os.PathListSeparator)
// as absolute paths, skipping empty entries.
func absDirs(list string) []string {
	var out []string
	for _, d := range filepath.SplitList(list) {
		if d = strings.TrimSpace(d); d != "" {
			if abs, err := filepath.Abs(d); err == nil {
				out = append(out, abs)
			}
		}
	}
	return out
}
