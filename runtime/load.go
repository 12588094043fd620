package runtime

import (
	"fmt"

	"go.starlark.net/starlark"
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
	// The step budget is the whole program's: the module gets what the
	// loading thread has left, and what it spends is taken from it.
	budget := stepBudget(th, h.maxSteps())
	remaining := budget - min(th.ExecutionSteps(), budget)
	mth, stop := h.newThread(canonical, max(remaining, 1))
	mth.SetLocal(stepBudgetKey, max(remaining, 1))
	defer stop()
	globals, err := h.execModule(mth, canonical, src)
	left := budget - min(mth.ExecutionSteps(), budget)
	th.SetMaxExecutionSteps(max(left, 1))
	th.SetLocal(stepBudgetKey, max(left, 1))
	h.modules[canonical] = &module{globals: globals, err: err}
	return globals, err
}

// stepBudgetKey holds a thread's step limit when it is not the program's.
const stepBudgetKey = "cdp-skill.stepBudget"

// stepBudget returns the step limit of th (def when it has none of its own).
func stepBudget(th *starlark.Thread, def uint64) uint64 {
	if b, ok := th.Local(stepBudgetKey).(uint64); ok {
		return b
	}
	return def
}

// execModule compiles and runs a loaded module on th; its globals are
// frozen.
func (h *host) execModule(th *starlark.Thread, name string, src []byte) (starlark.StringDict, error) {
	prog, err := h.compile(name, src)
	if err != nil {
		return nil, err
	}
	g, err := prog.Init(th, h.predeclared)
	g.Freeze()
	return g, err
}
