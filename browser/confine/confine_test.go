package confine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// TestOutputFileStaysInTheOutputDirectory: a capture's file is written
// inside the output directory, and a path outside it, through a symbolic
// link leading out, to a hidden name or with another kind's extension is
// refused as a step validation error that says what to give instead;
// nothing is written outside.
func TestOutputFileStaysInTheOutputDirectory(t *testing.T) {
	out, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(out, "away")); err != nil {
		t.Fatal(err)
	}
	shot := func(path string) OutputFile {
		return OutputFile{Path: path, Dir: out, Kind: "screenshot", Ext: ".png", Exts: []string{".png", ".jpg"}}
	}
	target, err := shot("shots/page").Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := target.Write([]byte("png")); err != nil {
		t.Fatal(err)
	}
	target.Close()
	if data, err := os.ReadFile(filepath.Join(out, "shots", "page.png")); err != nil || string(data) != "png" {
		t.Fatalf("the capture in the output dir: %q, %v", data, err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(outside, "page.png"), "is outside the output directory"},
		{"../page.png", "is outside the output directory"},
		{"away/page.png", "leads through a symbolic link outside"},
		{".git/page.png", "hidden name"},
		{"page.go", "must end in .png or .jpg"},
	} {
		_, err := shot(c.path).Open()
		var fe *failure.Error
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &fe) || fe.Kind != failure.KindStepValidation || fe.Hint == "" {
			t.Errorf("%s: want a step validation error saying %q with a hint, got %v", c.path, c.want, err)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files written outside the output dir: %v", entries)
	}
}

// TestCheckUploadFilesStagesOnlyAllowedRegularFiles: an upload inside the
// allowed directories is copied into the state dir (the copy is what
// Chrome reads); a file outside them, a link leading out, a hard link, a
// directory and a missing file are refused.
func TestCheckUploadFilesStagesOnlyAllowedRegularFiles(t *testing.T) {
	defer state.SetDir(state.SetDir(t.TempDir()))
	allowed, outside := t.TempDir(), t.TempDir()
	write := func(path, text string) string {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ok := write(filepath.Join(allowed, "a.txt"), "inside")
	secret := write(filepath.Join(outside, "secret.txt"), "outside")
	if err := os.Symlink(secret, filepath.Join(allowed, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(secret, filepath.Join(allowed, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	staged, err := CheckUploadFiles([]string{ok}, []string{allowed})
	if err != nil || len(staged) != 1 {
		t.Fatalf("an allowed file: %v %v", staged, err)
	}
	if data, err := os.ReadFile(staged[0]); err != nil || string(data) != "inside" || !strings.HasPrefix(staged[0], state.Dir()) {
		t.Fatalf("the staged copy %s: %q, %v", staged[0], data, err)
	}
	for _, c := range []struct{ file, want string }{
		{secret, "is outside the allowed directories"},
		{filepath.Join(allowed, "link.txt"), "is a symbolic link to a file outside"},
		{filepath.Join(allowed, "hard.txt"), "hard links"},
		{allowed, "not a regular file"},
		{filepath.Join(allowed, "none.txt"), "does not exist"},
	} {
		_, err := CheckUploadFiles([]string{c.file}, []string{allowed})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want %q, got %v", c.file, c.want, err)
		}
	}
}
