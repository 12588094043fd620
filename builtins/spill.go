package builtins

import (
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// The output policy: how a large payload is cut for the answer and where
// the whole of it goes. Builtins and the runtime's post-command capture
// share it.

// CutAtLine returns the longest prefix of s within n bytes that ends at a
// line break.
func CutAtLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return s[:i]
	}
	return s[:n]
}

// SpillFile writes a large payload under the state dir and returns its path:
// snapshots/<tab>-<name>.
func SpillFile(env *Env, kind, name string, data []byte) (string, error) {
	tab := env.Tab().Alias
	if tab == "" {
		tab = "tab"
	}
	return state.WriteFile(data, kind+"s", tab+"-"+name)
}
