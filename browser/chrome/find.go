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

// EnvChromePath names the variable that points at a Chrome executable.
const EnvChromePath = "CHROME_PATH"

// FindExecutable returns the Chrome executable: $CHROME_PATH when it exists,
// then chromium, chromium-browser, google-chrome (and friends) on PATH and in
// the usual install locations.
func FindExecutable() (string, error) {
	if p := os.Getenv(EnvChromePath); p != "" {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		return "", fmt.Errorf("%w: CHROME_PATH=%s does not exist; unset it or point it at a Chrome/Chromium binary", ErrNotInstalled, p)
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range knownLocations() {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: install Chromium (Debian/Ubuntu: sudo apt-get install -y chromium; macOS: brew install --cask chromium; or https://www.google.com/chrome/) or set CHROME_PATH", ErrNotInstalled)
}

func knownLocations() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
		}
	case "windows":
		var out []string
		for _, env := range []string{"LOCALAPPDATA", "PROGRAMFILES", "PROGRAMFILES(X86)"} {
			if d := os.Getenv(env); d != "" {
				out = append(out, d+`\Google\Chrome\Application\chrome.exe`, d+`\Chromium\Application\chrome.exe`)
			}
		}
		return out
	}
	return []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/snap/bin/chromium", "/opt/google/chrome/chrome"}
}
