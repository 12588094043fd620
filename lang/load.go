package lang

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// ErrLoadDenied is wrapped by load() errors for modules outside the allowed
// places.
var ErrLoadDenied = errors.New("load not allowed")

// Resolver finds the source of a load() target. Only three kinds of module
// exist: @stdlib/… (embedded), @site/<domain> (a site profile's recipes) and
// files next to the recipe (in its directory or below it).
type Resolver struct {
	// Dir is the directory of the top-level recipe ("" for JSON commands,
	// which cannot load files).
	Dir string
	// Stdlib holds the embedded standard library.
	Stdlib fs.FS
	// Site returns the recipe file of a site profile.
	Site func(domain string) (filename string, src []byte, err error)
	// SitesDir is where site recipes live: modules there may load only
	// @stdlib and @site modules, never files.
	SitesDir string
}

// Resolve returns the canonical name and source of module, loaded from the
// module named from.
func (r *Resolver) Resolve(from, module string) (name string, src []byte, err error) {
	switch {
	case strings.HasPrefix(module, "@stdlib/"):
		rel := strings.TrimPrefix(module, "@stdlib/")
		if !fs.ValidPath(rel) || !strings.HasSuffix(rel, ".star") {
			return "", nil, fmt.Errorf("%w: %q is not a stdlib module name such as @stdlib/forms.star", ErrLoadDenied, module)
		}
		if r.Stdlib == nil {
			return "", nil, fmt.Errorf("no stdlib available for %q", module)
		}
		data, err := fs.ReadFile(r.Stdlib, rel)
		if err != nil {
			return "", nil, fmt.Errorf("no stdlib module %q: %s", module, stdlibList(r.Stdlib))
		}
		return module, data, nil
	case strings.HasPrefix(module, "@site/"):
		domain := strings.TrimSuffix(strings.TrimPrefix(module, "@site/"), ".star")
		if r.Site == nil {
			return "", nil, fmt.Errorf("site profiles are not available here")
		}
		name, data, err := r.Site(domain)
		if err != nil {
			return "", nil, err
		}
		return name, data, nil
	case strings.HasPrefix(module, "@"):
		return "", nil, fmt.Errorf("%w: unknown module root in %q; use @stdlib/…, @site/<domain> or a file next to the recipe", ErrLoadDenied, module)
	}
	if r.SitesDir != "" && strings.HasPrefix(filepath.Clean(from), filepath.Clean(r.SitesDir)+string(filepath.Separator)) {
		return "", nil, fmt.Errorf("%w: %q: site recipes load only @stdlib/… and @site/… modules", ErrLoadDenied, module)
	}
	if r.Dir == "" || strings.HasPrefix(from, "@") {
		return "", nil, fmt.Errorf("%w: %q: only recipes run from a file can load files next to them; use @stdlib/… here", ErrLoadDenied, module)
	}
	clean := path.Clean(filepath.ToSlash(module))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || !strings.HasSuffix(clean, ".star") {
		return "", nil, fmt.Errorf("%w: %q: load only .star files in the recipe's directory or below it", ErrLoadDenied, module)
	}
	full := filepath.Join(r.Dir, filepath.FromSlash(clean))
	if real, err := filepath.EvalSymlinks(full); err == nil {
		base, _ := filepath.EvalSymlinks(r.Dir)
		if rel, err := filepath.Rel(base, real); err != nil || strings.HasPrefix(rel, "..") {
			return "", nil, fmt.Errorf("%w: %q points outside the recipe's directory", ErrLoadDenied, module)
		}
	}
	data, err := readModule(full)
	if err != nil {
		return "", nil, fmt.Errorf("load %q: %w", module, err)
	}
	return full, data, nil
}

func stdlibList(fsys fs.FS) string {
	names, _ := fs.Glob(fsys, "*.star")
	for i, n := range names {
		names[i] = "@stdlib/" + n
	}
	return "available: " + strings.Join(names, ", ")
}
