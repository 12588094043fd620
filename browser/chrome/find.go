package chrome

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// ErrNotInstalled is returned when no Chrome or Chromium executable is found.
var ErrNotInstalled = errors.New("chrome not found")

// EnvChromePath names the variable that points at a Chrome executable
// (read by the command into Host.Path).
const EnvChromePath = "CHROME_PATH"

// Find returns the Chrome executable: h.Path ($CHROME_PATH) when it
// exists, then chromium, chromium-browser, google-chrome (and friends) on
// PATH and in the usual install locations. When CHROME_PATH names no file
// the normal search is used instead (spec §4) and warning tells why.
func Find(h Host) (exe, warning string, err error) {
	if p := h.Path; p != "" {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, "", nil
		}
		warning = fmt.Sprintf("CHROME_PATH=%s does not exist, so Chrome was searched for in the usual places; unset CHROME_PATH or point it at a Chrome/Chromium binary", p)
	}
	if exe = search(h.ProgramDirs); exe != "" {
		if warning != "" {
			warning += " (found " + exe + ")"
		}
		return exe, warning, nil
	}
	msg := "install Chromium (Debian/Ubuntu: sudo apt-get install -y chromium; macOS: brew install --cask chromium; or https://www.google.com/chrome/) or set CHROME_PATH"
	if warning != "" {
		msg = warning + "; none found: " + msg
	}
	return "", "", fmt.Errorf("%w: %s", ErrNotInstalled, msg)
}

// search looks for Chrome on PATH and in the usual install locations
// (programDirs on Windows).
func search(programDirs []string) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	for _, p := range locations(programDirs) {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// locations lists the usual install locations (a variable for tests).
var locations = knownLocations

func knownLocations(programDirs []string) []string {
	return locationsOn(runtime.GOOS, programDirs)
}

// locationsOn lists the usual install locations on goos; on Windows they
// are under programDirs (Host.ProgramDirs).
func locationsOn(goos string, programDirs []string) []string {
	switch goos {
	case "darwin":
		return []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
		}
	case "windows":
		var out []string
		for _, d := range programDirs {
			out = append(out, d+`\Google\Chrome\Application\chrome.exe`, d+`\Chromium\Application\chrome.exe`)
		}
		return out
	}
	return []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/snap/bin/chromium", "/opt/google/chrome/chrome"}
}
