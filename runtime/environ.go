package runtime

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
)

// EnvStrict names the variable that turns strict mode on for every command
// (the same as "strict": true in each): no automatic fallbacks in actions.
const EnvStrict = "CDP_SKILL_STRICT"

// Environment is what the process environment configures for a program.
// It is read here, once per program, and passed down: package browser
// reads no environment variable of these.
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
	return e
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
