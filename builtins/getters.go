package builtins

import (
	"encoding/json"
	"fmt"

	"go.starlark.net/starlark"
)

// The getters are plain builtins, not steps: they read the page and return
// Starlark values, so recipes and Starlark hooks can branch on them.
func init() {
	registerFunction("url", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		return pageValue(th, `() => location.href`)
	})
	registerFunction("title", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
			return nil, err
		}
		return pageValue(th, `() => document.title`)
	})
	registerFunction("js", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var src string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &src); err != nil {
			return nil, err
		}
		p, err := EnvOf(th).Page()
		if err != nil {
			return nil, err
		}
		raw, err := p.Scripts().Run(ContextOf(th), src)
		if err != nil {
			return nil, fmt.Errorf("js: %w", err)
		}
		return rawToStarlark(raw)
	})
	selectorGetter("exists")
	selectorGetter("count")
	selectorGetter("text")
	selectorGetter("value")
	registerFunction("attr", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var sel, name string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "selector", &sel, "name", &name); err != nil {
			return nil, err
		}
		return selectorRead(th, "attr", sel, name)
	})
}

// selectorGetter registers a getter taking one CSS selector; it reads the
// page with the actions' lookup (open shadow roots, first visible match).
func selectorGetter(name string) {
	registerFunction(name, func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var sel string
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "selector", &sel); err != nil {
			return nil, err
		}
		return selectorRead(th, name, sel, "")
	})
}

func selectorRead(th *starlark.Thread, what, sel, name string) (starlark.Value, error) {
	p, err := EnvOf(th).Page()
	if err != nil {
		return nil, err
	}
	v, err := p.SelectorRead(ContextOf(th), sel, what, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return ToStarlark(v)
}

// pageValue calls fn in the page with args and converts the result.
func pageValue(th *starlark.Thread, fn string, args ...any) (starlark.Value, error) {
	p, err := EnvOf(th).Page()
	if err != nil {
		return nil, err
	}
	raw, err := p.Call(ContextOf(th), fn, args...)
	if err != nil {
		return nil, err
	}
	return rawToStarlark(raw)
}

func rawToStarlark(raw json.RawMessage) (starlark.Value, error) {
	if len(raw) == 0 {
		return starlark.None, nil
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, err
	}
	return ToStarlark(v)
}
