package state

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on first use: a package-level regexp compiles
// in every process's start-up, also in the many commands that never use
// it.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
