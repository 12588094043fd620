package builtins

import (
	"context"
	"fmt"
	"sync"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// Call is one invocation of an action builtin.
type Call struct {
	Ctx    context.Context
	Env    *Env
	Thread *starlark.Thread
	Action *lang.Action
	Args   *Args
	// Poller evaluates JavaScript and Starlark predicates.
	Poller Poller
	// Loader loads a Starlark module (stdlib, site recipes) the way load()
	// does, for actions that run recipe code.
	Loader func(th *starlark.Thread, module string) (starlark.StringDict, error)
	// Warnings collects non-fatal notes for the step result.
	Warnings []string
	// done runs when the step ends.
	done []func()
}

// OnDone registers fn to run when the step ends (success or failure).
func (c *Call) OnDone(fn func()) { c.done = append(c.done, fn) }

// Finish runs the OnDone funcs; the runtime calls it once per step.
func (c *Call) Finish() {
	for i := len(c.done) - 1; i >= 0; i-- {
		c.done[i]()
	}
	c.done = nil
}

// Warn adds a warning to the step result.
func (c *Call) Warn(format string, args ...any) {
	c.Warnings = append(c.Warnings, fmt.Sprintf(format, args...))
}

// ActionFunc implements one action. It returns a JSON-shaped output (a map,
// a struct, or nil).
type ActionFunc func(c *Call) (any, error)

var actions = map[string]ActionFunc{}

// checked verifies, on first use, that every implementation is bound to a
// catalog action (checking in init would build the catalog in every
// process, including a command that only forwards to the resident one).
var checked = sync.OnceFunc(func() {
	for name := range actions {
		if _, ok := lang.LookupAction(name); !ok {
			panic("builtins: " + name + " is not in the lang catalog")
		}
	}
})

// register binds implementations to catalog actions by JSON name.
func register(impls map[string]ActionFunc) {
	for name, fn := range impls {
		if _, dup := actions[name]; dup {
			panic("builtins: " + name + " is registered twice")
		}
		actions[name] = fn
	}
}

// Lookup returns the implementation of a catalog action.
func Lookup(name string) (ActionFunc, bool) {
	checked()
	fn, ok := actions[name]
	return fn, ok
}

// EnvKey is the thread-local key under which the runtime stores the *Env.
const EnvKey = "cdp-skill.env"

// CtxKey is the thread-local key of the context.Context of the running program.
const CtxKey = "cdp-skill.ctx"

// EnvOf returns the Env of a thread.
func EnvOf(th *starlark.Thread) *Env {
	e, _ := th.Local(EnvKey).(*Env)
	return e
}

// ContextOf returns the context of a thread (Background when unset).
func ContextOf(th *starlark.Thread) context.Context {
	if c, ok := th.Local(CtxKey).(context.Context); ok {
		return c
	}
	return context.Background()
}

var functions = map[string]*starlark.Builtin{}

// registerFunction adds a non-step builtin (a getter or helper); it must be
// declared in the lang catalog of functions.
func registerFunction(name string, fn func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) {
	if _, ok := lang.LookupFunction(name); !ok {
		panic("builtins: function " + name + " is not in the lang catalog")
	}
	functions[name] = starlark.NewBuiltin(name, fn)
}

// Functions returns the non-step builtins implemented here.
func Functions() map[string]*starlark.Builtin { return functions }

// warnAll adds each of a result's warnings to the step.
func warnAll(c *Call, warnings []string) {
	for _, w := range warnings {
		c.Warn("%s", w)
	}
}
