package chrome

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindFallsBackFromMissingChromePath(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "chromium")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no-such-chrome")
	saved := locations
	t.Cleanup(func() { locations = saved })
	locations = func([]string) []string { return nil }

	tests := []struct {
		name, chromePath, path string
		wantExe, wantWarn      string
		wantErr                []string
	}{
		{name: "CHROME_PATH exists", chromePath: fake, path: "", wantExe: fake},
		{name: "missing CHROME_PATH falls back to PATH", chromePath: missing, path: dir, wantExe: fake, wantWarn: "CHROME_PATH=" + missing + " does not exist"},
		{name: "missing everywhere", chromePath: missing, path: t.TempDir(), wantErr: []string{"CHROME_PATH=" + missing, "none found", "install Chromium"}},
		{name: "nothing set, nothing found", path: t.TempDir(), wantErr: []string{"install Chromium"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", tt.path)
			exe, warn, err := Find(Host{Path: tt.chromePath})
			if len(tt.wantErr) > 0 {
				if !errors.Is(err, ErrNotInstalled) {
					t.Fatalf("err = %v, want ErrNotInstalled", err)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil || exe != tt.wantExe {
				t.Fatalf("Find() = %q, %v; want %q", exe, err, tt.wantExe)
			}
			if (tt.wantWarn == "") != (warn == "") || !strings.Contains(warn, tt.wantWarn) {
				t.Errorf("warning = %q, want %q", warn, tt.wantWarn)
			}
		})
	}
}

// TestLocationsOnWindowsUseProgramDirs: on Windows Chrome is looked for
// under the program directories the command read (Host.ProgramDirs), in
// their order; elsewhere they play no part.
func TestLocationsOnWindowsUseProgramDirs(t *testing.T) {
	got := locationsOn("windows", []string{`C:\Users\ann\AppData\Local`, `C:\Program Files`})
	want := []string{
		`C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`, `C:\Users\ann\AppData\Local\Chromium\Application\chrome.exe`,
		`C:\Program Files\Google\Chrome\Application\chrome.exe`, `C:\Program Files\Chromium\Application\chrome.exe`,
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("windows: %q, want %q", got, want)
	}
	if got := locationsOn("windows", nil); len(got) != 0 {
		t.Errorf("windows without program dirs: %q", got)
	}
	if got := locationsOn("linux", []string{`C:\Program Files`}); len(got) == 0 || strings.Contains(strings.Join(got, "|"), "Program Files") {
		t.Errorf("linux: %q", got)
	}
}
