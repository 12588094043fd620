package runtime

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// module is a loaded module: its globals, or the error of loading it. A nil
// globals with no error marks a load in progress (cycle detection).
type module struct {
	globals starlark.StringDict
	err     error
}

// load implements load() for the thread: modules resolve through the
// resolver, run once in their own sandboxed thread, and are cached.
func (h *host) load(th *starlark.Thread, name string) (starlark.StringDict, error) {
	from := th.Name
	canonical, src, err := h.resolver.Resolve(from, name)
	if err != nil {
		return nil, err
	}
	if m, ok := h.modules[canonical]; ok {
		if m.globals == nil && m.err == nil {
			return nil, fmt.Errorf("load cycle: %s loads itself through %s", name, from)
		}
		return m.globals, m.err
	}
	h.modules[canonical] = &module{}
	mth, stop := h.newThread(canonical, h.maxSteps())
	defer stop()
	globals, err := starlark.ExecFileOptions(lang.FileOptions, mth, canonical, src, h.predeclared)
	h.modules[canonical] = &module{globals: globals, err: err}
	return globals, err
}
