package state

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// EnvSitesDir overrides where site profiles live (default
// ~/.cdp-skill/sites). The command reads it and calls SetSitesDir.
const EnvSitesDir = "CDP_SKILL_SITES_DIR"

// ErrBadDomain is wrapped by errors for domains that cannot name a profile.
var ErrBadDomain = errors.New("not a valid site domain")

// SetSitesDir sets the site profile directory for the whole process (""
// restores the default) and returns the previous setting.
func SetSitesDir(dir string) (previous string) {
	dirs.Lock()
	defer dirs.Unlock()
	previous, dirs.sites = dirs.sites, dir
	return previous
}

// SitesDir returns the site profile directory: the one set with
// SetSitesDir ($CDP_SKILL_SITES_DIR), otherwise ~/.cdp-skill/sites.
func SitesDir() string {
	dirs.RLock()
	d := dirs.sites
	dirs.RUnlock()
	if d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.Join(os.TempDir(), "cdp-skill-sites")
	}
	return filepath.Join(home, ".cdp-skill", "sites")
}

var hostPattern = lazyRegexp(`^[a-z0-9_-]+(\.[a-z0-9_-]+)*$`)

// NormalizeDomain turns a domain or URL into the profile's name (spec
// §15.2): lower case, no leading "www.", and every character but letters,
// digits, "." and "-" replaced by "_" (my_site!.com is my_site_.com,
// localhost:8080 is localhost_8080). A URL gives its host name without
// the port, as a navigation's lookup does. Paths (a slash or backslash
// outside a URL) and NUL are refused, and what is left must be
// dot-separated labels, none empty (no "..", no leading dot), so a profile
// can never be written outside the sites directory.
func NormalizeDomain(s string) (string, error) {
	raw := s
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "\x00\\") {
		return "", fmt.Errorf("%w: %q contains a NUL byte or backslash", ErrBadDomain, raw)
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || u.Hostname() == "" {
			return "", fmt.Errorf("%w: %q is not a URL with a host", ErrBadDomain, raw)
		}
		s = u.Hostname()
	} else if strings.Contains(s, "/") {
		return "", fmt.Errorf("%w: %q is a path: give the host name alone, such as github.com", ErrBadDomain, raw)
	}
	s = strings.TrimSuffix(strings.ToLower(s), ".")
	s = strings.TrimPrefix(s, "www.")
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, s)
	if s == "" || len(s) > 253 || !hostPattern().MatchString(s) {
		return "", fmt.Errorf("%w: %q: give a host name such as github.com", ErrBadDomain, raw)
	}
	return s, nil
}

// Profile is a site profile: free markdown, and optionally a Starlark
// module of recipes beside it ({domain}.star).
type Profile struct {
	Domain      string
	Content     string
	Recipes     string
	Path        string
	RecipesPath string
}

func profilePaths(domain string) (md, star string) {
	dir := SitesDir()
	return filepath.Join(dir, domain+".md"), filepath.Join(dir, domain+".star")
}

// ReadProfile returns the profile of a (normalized) domain; found is false
// when there is none.
func ReadProfile(domain string) (Profile, bool, error) {
	md, star := profilePaths(domain)
	p := Profile{Domain: domain, Path: md}
	content, err := readFileNoEscape(md)
	if errors.Is(err, os.ErrNotExist) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("read site profile %s: %w", md, err)
	}
	p.Content = string(content)
	if recipes, err := readFileNoEscape(star); err == nil {
		p.Recipes, p.RecipesPath = string(recipes), star
	}
	return p, true, nil
}

// WriteProfile writes a profile atomically under the profile's lock. An
// empty recipes leaves the recipes file as it is; Recipes set to a single
// newline removes it.
func WriteProfile(ctx context.Context, p Profile) (Profile, error) {
	md, star := profilePaths(p.Domain)
	if err := os.MkdirAll(filepath.Dir(md), 0o700); err != nil {
		return p, fmt.Errorf("create %s: %w", filepath.Dir(md), err)
	}
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	unlock, err := Lock(lctx, md+".lock")
	if err != nil {
		return p, err
	}
	defer unlock()
	if err := WriteFileAtomic(md, []byte(p.Content), 0o600); err != nil {
		return p, err
	}
	p.Path = md
	switch {
	case p.Recipes == "\n":
		os.Remove(star)
		p.Recipes = ""
	case p.Recipes != "":
		if err := WriteFileAtomic(star, []byte(p.Recipes), 0o600); err != nil {
			return p, err
		}
		p.RecipesPath = star
	default:
		if _, err := os.Stat(star); err == nil {
			p.RecipesPath = star
		}
	}
	return p, nil
}
