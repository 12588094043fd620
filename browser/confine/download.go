package confine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// DownloadsSubdir is the folder of the output directory downloads land in.
const DownloadsSubdir = "downloads"

// maxNameBytes bounds a saved download's file name.
const maxNameBytes = 120

// SanitizeFilename turns the name a page suggests into a safe file name:
// no directories, no hidden (dot) names, no control or reserved characters,
// bounded length; "download" when nothing is left.
func SanitizeFilename(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), strings.ContainsRune(`<>:"|?*`, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	name = strings.TrimLeft(strings.TrimSpace(b.String()), ". ")
	name = strings.TrimRight(name, ". ")
	if len(name) > maxNameBytes {
		ext := filepath.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		stem := name[:maxNameBytes-len(ext)]
		for !utf8.ValidString(stem) {
			stem = stem[:len(stem)-1]
		}
		name = stem + ext
	}
	if name == "" {
		return "download"
	}
	return name
}

// CopyIntoOutput copies src to a new file named like name in
// outDir/downloads, through an os.Root so that no link leads outside.
func CopyIntoOutput(src, outDir, name string) (string, int64, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", 0, fmt.Errorf("create the output dir: %w", err)
	}
	root, err := os.OpenRoot(outDir)
	if err != nil {
		return "", 0, fmt.Errorf("open the output dir: %w", err)
	}
	defer root.Close()
	if err := root.MkdirAll(DownloadsSubdir, 0o755); err != nil {
		return "", 0, fmt.Errorf("create %s in the output dir: %w", DownloadsSubdir, err)
	}
	in, err := openStaged(src)
	if err != nil {
		return "", 0, err
	}
	defer in.Close()
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 0; i < 100; i++ {
		candidate := name
		if i > 0 {
			candidate = fmt.Sprintf("%s (%d)%s", stem, i, ext)
		}
		rel := filepath.Join(DownloadsSubdir, candidate)
		f, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", 0, fmt.Errorf("create %s: %w", rel, err)
		}
		n, err := io.Copy(f, in)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			root.Remove(rel)
			return "", 0, fmt.Errorf("write %s: %w", rel, err)
		}
		abs, err := filepath.Abs(filepath.Join(outDir, rel))
		return abs, n, err
	}
	return "", 0, fmt.Errorf("%s and 99 numbered variants exist already", name)
}

// openStaged opens Chrome's file through the state dir's root.
func openStaged(src string) (*os.File, error) {
	root, err := state.OpenRoot()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	dir, err := filepath.Abs(state.Dir())
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(dir, src)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("the downloaded file %s is not in the state dir", src)
	}
	return root.Open(rel)
}
