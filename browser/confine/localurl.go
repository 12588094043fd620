package confine

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/failure"
)

// FileDirsEnv names the environment variable listing the directories whose
// files goto and openTab may open as file: URLs (separated by
// os.PathListSeparator). Without it, file: URLs are refused: a page opened
// from a file can read other local files.
const FileDirsEnv = "CDP_SKILL_FILE_DIRS"

// AllowSchemesEnv names the environment variable listing the other local
// URL schemes goto and openTab may open (comma separated, such as
// "chrome,devtools").
const AllowSchemesEnv = "CDP_SKILL_ALLOW_SCHEMES"

// URLPolicy says which local URLs goto and openTab may open; the zero
// policy refuses them all. The caller builds it from the environment
// (CDP_SKILL_FILE_DIRS, CDP_SKILL_ALLOW_SCHEMES): package browser reads
// none.
type URLPolicy struct {
	// FileDirs are the directories whose files may open as file: URLs.
	FileDirs []string
	// Schemes are the other local schemes allowed ("chrome", "devtools").
	Schemes []string
}

// localSchemes are the URL schemes that reach the machine or the browser
// itself rather than the web.
var localSchemes = []string{"file", "filesystem", "chrome", "chrome-untrusted", "chrome-extension", "chrome-search", "devtools", "view-source"}

// CheckLocalURL refuses a URL of a local scheme unless the user opted in.
func CheckLocalURL(raw string, u *url.URL, pol URLPolicy) error {
	scheme := strings.ToLower(u.Scheme)
	if !slices.Contains(localSchemes, scheme) {
		return nil
	}
	if scheme == "view-source" {
		inner, err := url.Parse(u.Opaque)
		if err != nil || inner.Scheme == "" {
			return nil
		}
		return CheckLocalURL(u.Opaque, inner, pol)
	}
	if scheme == "file" {
		return checkFileURL(raw, u, pol.FileDirs)
	}
	for _, s := range pol.Schemes {
		if strings.EqualFold(strings.TrimSpace(s), scheme) {
			return nil
		}
	}
	return failure.Errorf(failure.KindStepValidation, "%s: URLs are refused: they reach the browser or the machine, not the web (%q)", scheme, raw).
		WithHint("to allow them, set the environment variable %s=%s for cdp-skill", AllowSchemesEnv, scheme)
}

// checkFileURL allows a file: URL whose file lies in one of the
// directories allowed once symbolic links are resolved.
func checkFileURL(raw string, u *url.URL, allowed []string) error {
	path := filepath.Clean(u.Path)
	var dirs []string
	for _, d := range allowed {
		if d = strings.TrimSpace(d); d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				abs = real
			}
			dirs = append(dirs, abs)
		}
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	if u.Host != "" && u.Host != "localhost" || len(dirs) == 0 || !InsideAny(real, dirs) {
		how := "no directory is allowed"
		if len(dirs) > 0 {
			how = "it is outside the allowed directories (" + strings.Join(dirs, ", ") + ")"
		}
		return failure.Errorf(failure.KindStepValidation, "file: URL refused: %q would let the page read local files, and %s", raw, how).
			WithHint("serve the files over http (python3 -m http.server), or allow their directory with the environment variable %s=/path/to/dir (a list separated by %q)", FileDirsEnv, string(os.PathListSeparator))
	}
	return nil
}

// Check validates a URL an agent asked to open: a URL with a scheme (a
// bare host gets https://), and a local one only where the policy allows.
func (pol URLPolicy) Check(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", failure.Errorf(failure.KindStepValidation, "empty URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", failure.Errorf(failure.KindStepValidation, "invalid URL %q: %v", raw, err)
	}
	if u.Scheme == "" {
		// "example.com/path" → https://example.com/path, as a browser would.
		if !strings.Contains(raw, " ") && strings.Contains(strings.SplitN(raw, "/", 2)[0], ".") || strings.HasPrefix(raw, "localhost") {
			scheme := "https://"
			if strings.HasPrefix(raw, "localhost") || strings.HasPrefix(raw, "127.0.0.1") {
				scheme = "http://"
			}
			return scheme + raw, nil
		}
		return "", failure.Errorf(failure.KindStepValidation, "URL %q has no scheme", raw).WithHint("use a full URL such as https://example.com/")
	}
	if err := CheckLocalURL(raw, u, pol); err != nil {
		return "", err
	}
	return raw, nil
}
