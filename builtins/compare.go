package builtins

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

type syntaxToken = syntax.Token

func compareRecords(op syntax.Token, x, y *Record, depth int) (bool, error) {
	switch op {
	case syntax.EQL, syntax.NEQ:
	default:
		return false, fmt.Errorf("records support only == and !=")
	}
	eq := len(x.keys) == len(y.keys)
	for _, k := range x.keys {
		if !eq {
			break
		}
		yv, ok := y.values[k]
		if !ok {
			eq = false
			break
		}
		same, err := starlark.EqualDepth(x.values[k], yv, depth-1)
		if err != nil {
			return false, err
		}
		eq = same
	}
	if op == syntax.EQL {
		return eq, nil
	}
	return !eq, nil
}
