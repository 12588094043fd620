package runtime

import (
	"fmt"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang"
)

// maxFormatNodes bounds the values str, repr and print walk before
// formatting (a value this large would not fit an answer anyway).
const maxFormatNodes = 5_000_000

// boundedFormat wraps the universe's str, repr or print so that a value
// nested deeper than lang.MaxNesting is refused at once: Starlark formats
// values recursively, without checking for cancellation, so str() of a list
// nested a million deep would run for tens of seconds past any timeout.
// The text it would make is charged to m first (a value that shares its
// parts prints each share in full).
func boundedFormat(name string, m *memAccount) *starlark.Builtin {
	inner := starlark.Universe[name]
	return starlark.NewBuiltin(name, func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		for _, a := range args {
			if err := checkFormattable(a); err != nil {
				return nil, err
			}
		}
		for _, kv := range kwargs {
			if err := checkFormattable(kv[1]); err != nil {
				return nil, err
			}
		}
		var n uint64
		for _, a := range args {
			n = satAdd(n, printedSize(a))
		}
		if err := m.charge(name, n); err != nil {
			return nil, err
		}
		return starlark.Call(th, inner, args, kwargs)
	})
}

// checkFormattable walks v without recursion and fails when it nests
// deeper than lang.MaxNesting or holds more than maxFormatNodes values.
func checkFormattable(v starlark.Value) error {
	type item struct {
		v     starlark.Value
		depth int
	}
	stack := []item{{v, 0}}
	seen := map[starlark.Value]bool{}
	nodes := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nodes++
		if nodes > maxFormatNodes {
			return fmt.Errorf("the value holds more than %d elements; format a part of it", maxFormatNodes)
		}
		if it.depth > lang.MaxNesting {
			return fmt.Errorf("the value is nested deeper than %d levels; format a part of it", lang.MaxNesting)
		}
		var children []starlark.Value
		switch x := it.v.(type) {
		case *starlark.List:
			if seen[x] {
				continue // a cycle prints as [...]
			}
			seen[x] = true
			for i := 0; i < x.Len(); i++ {
				children = append(children, x.Index(i))
			}
		case starlark.Tuple:
			children = x
		case *starlark.Dict:
			if seen[x] {
				continue
			}
			seen[x] = true
			for _, kv := range x.Items() {
				children = append(children, kv[0], kv[1])
			}
		case *starlark.Set:
			if seen[x] {
				continue
			}
			seen[x] = true
			iter := x.Iterate()
			var e starlark.Value
			for iter.Next(&e) {
				children = append(children, e)
			}
			iter.Done()
		}
		for _, c := range children {
			stack = append(stack, item{c, it.depth + 1})
		}
	}
	return nil
}
