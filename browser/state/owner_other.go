//go:build !unix

package state

import (
	"os"
	"path/filepath"
)

// ownerChecked says this system has file owners and modes to check: not
// here (Windows keeps a temporary directory per user).
const ownerChecked = false

// ownedByMe cannot tell here.
func ownedByMe(string, os.FileInfo) error { return nil }

// defaultDir is the state dir in the user's temporary directory.
func defaultDir() string { return filepath.Join(os.TempDir(), "cdp-skill") }
