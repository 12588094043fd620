package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSocketLock: one holder at a time; release removes the lock file; a
// holder whose file was removed under it does not stop a new holder of the
// file now at the path; removeStale leaves a held socket alone.
func TestSocketLock(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "x.sock")
	l, ok := lockSocket(sock)
	if !ok {
		t.Fatal("first lock refused")
	}
	if _, ok := lockSocket(sock); ok {
		t.Fatal("a second holder got the lock")
	}
	os.WriteFile(sock, nil, 0o600)
	removeStale(sock)
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("removeStale removed a held socket: %v", err)
	}
	l.release()
	if _, err := os.Stat(sock + ".lock"); !os.IsNotExist(err) {
		t.Fatalf("release left the lock file: %v", err)
	}
	old, ok := lockSocket(sock)
	if !ok {
		t.Fatal("lock after release refused")
	}
	os.Remove(sock + ".lock") // as a holder ending would, but still held
	again, ok := lockSocket(sock)
	if !ok {
		t.Fatal("the file now at the path could not be locked")
	}
	again.release()
	old.Close()
	removeStale(sock)
	if left, _ := filepath.Glob(sock + "*"); len(left) != 0 {
		t.Fatalf("removeStale left %v", left)
	}
}

// TestResidentEnvKey: the variables each command carries do not pick
// another resident process; the process-level ones (state dir, memory
// limit, downloads) and the Chrome lookup ones do.
func TestResidentEnvKey(t *testing.T) {
	for _, c := range []struct {
		name  string
		inKey bool
	}{
		{"CDP_SKILL_CAPTURE", false},
		{"CDP_SKILL_OUTPUT_DIR", false},
		{"CDP_SKILL_UPLOAD_DIRS", false},
		{"CDP_SKILL_FILE_DIRS", false},
		{"CDP_SKILL_ALLOW_SCHEMES", false},
		{"CDP_SKILL_STRICT", false},
		{EnvLog, false},
		{EnvResident, false},
		{"CDP_SKILL_MAX_MEMORY_MB", true},
		{"CDP_SKILL_STATE_DIR", true},
		{"CDP_SKILL_SITES_DIR", true},
		{"CDP_SKILL_DOWNLOADS", true},
		{"CDP_SKILL_NO_DIALOG_KEEPER", true},
		{"CHROME_PATH", true},
		{"PATH", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(c.name, "value-for-the-key-test")
			if got := slices.Contains(residentEnv(), c.name+"=value-for-the-key-test"); got != c.inKey {
				t.Errorf("%s in the resident key = %v, want %v", c.name, got, c.inKey)
			}
		})
	}
}
