package runtime

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// addBudgeted adds to d the checking builtins the rewritten program calls
// (budgetRewrite) and the collection builtins that materialise a range,
// each charging m before the value is made.
func addBudgeted(d starlark.StringDict, m *memAccount) {
	for op := range budgetedOps {
		d[operatorName+op.String()] = binaryBuiltin(m, op)
	}
	for aug, op := range budgetedAugmented {
		d[operatorName+aug.String()] = augmentedBuiltin(m, op)
	}
	for name, on := range budgetedMethods {
		if on {
			d[methodName+name] = methodBuiltin(m, name)
		}
	}
	for name, per := range map[string]uint64{
		"list": slotBytes, "tuple": slotBytes, "sorted": slotBytes, "reversed": slotBytes,
		"enumerate": 5 * slotBytes, "zip": 5 * slotBytes, "set": 4 * slotBytes, "dict": 6 * slotBytes,
	} {
		d[name] = collectionBuiltin(m, name, per)
	}
}

// binaryBuiltin is x op y, checked.
func binaryBuiltin(m *memAccount, op syntax.Token) *starlark.Builtin {
	name := operatorName + op.String()
	return starlark.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, y := args[0], args[1]
		if err := m.charge(name, binarySize(op, x, y)); err != nil {
			return nil, err
		}
		return starlark.Binary(op, x, y)
	})
}

// augmentedBuiltin checks x op= y and returns y for the assignment.
func augmentedBuiltin(m *memAccount, op syntax.Token) *starlark.Builtin {
	name := operatorName + op.String() + "="
	return starlark.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, y := args[0], args[1]
		n := binarySize(op, x, y)
		if op == syntax.PLUS {
			// list += iterable extends the list in place.
			if xl, ok := x.(*starlark.List); ok && lenOf(y) > 0 {
				n = uint64(xl.Len()+lenOf(y)) * slotBytes
			}
		}
		if err := m.charge(name, n); err != nil {
			return nil, err
		}
		return y, nil
	})
}

// methodBuiltin returns x.name, checked when x is a string or a list.
func methodBuiltin(m *memAccount, name string) *starlark.Builtin {
	return starlark.NewBuiltin(methodName+name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x := args[0]
		hasAttr, ok := x.(starlark.HasAttrs)
		if !ok {
			return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
		}
		v, err := hasAttr.Attr(name)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
		}
		inner, ok := v.(*starlark.Builtin)
		if !ok {
			return v, nil
		}
		switch x.(type) {
		case starlark.String, *starlark.List:
		default:
			return v, nil
		}
		return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, margs starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := m.charge(name, methodSize(x, name, margs, kwargs)); err != nil {
				return nil, err
			}
			return starlark.Call(th, inner, margs, kwargs)
		}), nil
	})
}

// methodSize estimates the bytes x.name(args) makes.
func methodSize(x starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) uint64 {
	switch name {
	case "extend":
		if l, ok := x.(*starlark.List); ok && len(args) == 1 && lenOf(args[0]) > 0 {
			return uint64(l.Len()+lenOf(args[0])) * slotBytes
		}
		return 0
	}
	s, ok := x.(starlark.String)
	if !ok {
		return 0
	}
	str := string(s)
	switch name {
	case "join":
		if len(args) != 1 {
			return 0
		}
		seq, ok := args[0].(starlark.Indexable)
		if !ok {
			return 0
		}
		n := mulSize(uint64(len(str)), uint64(seq.Len()))
		for i := 0; i < seq.Len(); i++ {
			if e, ok := seq.Index(i).(starlark.String); ok {
				n = satAdd(n, uint64(len(e)))
			}
		}
		return n
	case "replace":
		if len(args) < 2 {
			return 0
		}
		old, ok1 := args[0].(starlark.String)
		repl, ok2 := args[1].(starlark.String)
		if !ok1 || !ok2 || len(repl) <= len(old) {
			return uint64(len(str))
		}
		count := uint64(strings.Count(str, string(old)))
		if len(args) > 2 {
			if c := repeatCount(args[2]); c < count {
				count = c
			}
		}
		return satAdd(uint64(len(str)), mulSize(count, uint64(len(repl)-len(old))))
	case "format":
		all := append(starlark.Tuple{}, args...)
		for _, kv := range kwargs {
			all = append(all, kv[1])
		}
		return formatSize(str, "{", all)
	case "split", "rsplit":
		pieces := uint64(len(str)/2 + 1)
		if len(args) > 0 {
			if sep, ok := args[0].(starlark.String); ok && sep != "" {
				pieces = uint64(strings.Count(str, string(sep)) + 1)
			}
		}
		return satAdd(uint64(len(str)), mulSize(pieces, 2*slotBytes))
	case "splitlines":
		return satAdd(uint64(len(str)), mulSize(uint64(strings.Count(str, "\n")+1), 2*slotBytes))
	}
	return 0
}

// collectionBuiltin wraps the universe's name (list, tuple, sorted…) so
// that materialising a long sequence (a range of two billion) is checked
// first: per bytes for each element.
func collectionBuiltin(m *memAccount, name string, per uint64) *starlark.Builtin {
	inner := starlark.Universe[name]
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n uint64
		for _, a := range args {
			if l := lenOf(a); l > 0 {
				n = satAdd(n, mulSize(uint64(l), per))
			}
		}
		if err := m.charge(name, n); err != nil {
			return nil, err
		}
		return starlark.Call(th, inner, args, kwargs)
	})
}
