package builtins

import (
	"encoding/json"
	"fmt"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// The getters are plain builtins, not steps: they read the page and return
// Starlark values, so recipes and Starlark hooks can branch on them.
func init() {
	registerFunction("url", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := unpackDeclared(b, args, kwargs); err != nil {
			return nil, err
		}
		return pageValue(th, `() => location.href`)
	})
	registerFunction("title", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := unpackDeclared(b, args, kwargs); err != nil {
			return nil, err
		}
		return pageValue(th, `() => document.title`)
	})
	registerFunction("js", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var src string
		if err := unpackDeclared(b, args, kwargs, &src); err != nil {
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
		if err := unpackDeclared(b, args, kwargs, &sel, &name); err != nil {
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
		if err := unpackDeclared(b, args, kwargs, &sel); err != nil {
			return nil, err
		}
		return selectorRead(th, name, sel, "")
	})
}

// unpackDeclared unpacks a function's arguments into dst by the parameter
// names its lang catalog entry declares (in order), so the names a recipe
// may give as keywords are the ones the reference and the checker show.
func unpackDeclared(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, dst ...any) error {
	f, ok := lang.LookupFunction(b.Name())
	if !ok || len(f.Params) != len(dst) {
		return fmt.Errorf("%s: the catalog declares %d parameters, the builtin reads %d", b.Name(), len(f.Params), len(dst))
	}
	pairs := make([]any, 0, 2*len(dst))
	for i, name := range f.Params {
		pairs = append(pairs, name, dst[i])
	}
	return starlark.UnpackArgs(b.Name(), args, kwargs, pairs...)
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
