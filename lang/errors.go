package lang

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Diagnostic is a located problem in a recipe.
type Diagnostic struct {
	// Pos is "file:line:col".
	Pos     string `json:"pos"`
	Message string `json:"message"`
}

func (d Diagnostic) String() string { return d.Pos + ": " + d.Message }

// ErrorReport is a Starlark failure ready for the output: the message, where
// it happened in the recipe and the call stack.
type ErrorReport struct {
	Message   string `json:"message"`
	Location  string `json:"location,omitempty"`
	Backtrace string `json:"backtrace,omitempty"`
}

// ReportError turns an error from compiling or running Starlark into a
// report with file:line and backtrace.
func ReportError(err error) ErrorReport {
	var evalErr *starlark.EvalError
	if errors.As(err, &evalErr) {
		r := ErrorReport{Message: evalErr.Msg, Backtrace: evalErr.Backtrace()}
		// The innermost frame with a real position is where it happened.
		for i := len(evalErr.CallStack) - 1; i >= 0; i-- {
			if pos := evalErr.CallStack[i].Pos; pos.IsValid() && pos.Filename() != "<builtin>" {
				r.Location = pos.String()
				break
			}
		}
		return r
	}
	var syn syntax.Error
	if errors.As(err, &syn) {
		return ErrorReport{Message: syn.Msg, Location: syn.Pos.String()}
	}
	var list resolve.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		var msgs []string
		for _, e := range list {
			msgs = append(msgs, e.Pos.String()+": "+improveResolveMsg(e.Msg))
		}
		return ErrorReport{Message: strings.Join(msgs, "; "), Location: list[0].Pos.String()}
	}
	return ErrorReport{Message: err.Error()}
}

// improveResolveMsg adds a suggestion to "undefined: x".
func improveResolveMsg(msg string) string {
	name, ok := strings.CutPrefix(msg, "undefined: ")
	if !ok {
		return msg
	}
	if c := closest(name, builtinNames()); c != "" {
		return fmt.Sprintf("%s (did you mean %s?)", msg, c)
	}
	return msg
}

func builtinNames() []string {
	built()
	var out []string
	for n := range byBuiltin {
		out = append(out, n)
	}
	for n := range functions {
		out = append(out, n)
	}
	return out
}
