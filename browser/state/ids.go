package state

import (
	"errors"
	"fmt"
	"regexp"
)

// targetIDPattern is what a target id may look like: Chrome's are 32 hex
// digits; other CDP servers use UUIDs. Nothing that could name another
// directory (no dots, no separators) gets through, because a target id is
// part of file names in the state dir.
var targetIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

// ErrBadTabRef is wrapped by the errors about a tab alias or target id of
// the wrong shape.
var ErrBadTabRef = errors.New("not a tab alias or target id")

// IsTargetID reports whether s has the shape of a target id.
func IsTargetID(s string) bool { return targetIDPattern.MatchString(s) }

// CheckTabRef returns an error unless ref is a tab alias (t1) or has the
// shape of a target id (letters, digits, - and _; at most 128).
func CheckTabRef(ref string) error {
	if IsAlias(ref) || IsTargetID(ref) {
		return nil
	}
	return fmt.Errorf("%w: %q; a tab is named by its alias such as \"t1\" (listTabs shows them) or by its target id (32 hex digits)", ErrBadTabRef, clip(ref, 80))
}

// CheckTargetID returns an error unless id has the shape of a target id.
func CheckTargetID(id string) error {
	if IsTargetID(id) {
		return nil
	}
	return fmt.Errorf("%w: target id %q has characters other than letters, digits, - and _", ErrBadTabRef, clip(id, 80))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
