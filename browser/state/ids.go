package state

import (
	"errors"
	"fmt"
)

// ErrBadTabRef is wrapped by the errors about a tab alias or target id of
// the wrong shape.
var ErrBadTabRef = errors.New("not a tab alias or target id")

// IsTargetID reports whether s has the shape of a target id: Chrome's are
// 32 hex digits; other CDP servers use UUIDs. Letters, digits, - and _, a
// letter or digit first, at most 128: nothing that could name another
// directory (no dots, no separators) gets through, because a target id is
// part of file names in the state dir. (Written out: the regexp with
// {0,127} cost every process 0.3 ms to compile.)
func IsTargetID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '-' || c == '_') && i > 0:
		default:
			return false
		}
	}
	return true
}

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
