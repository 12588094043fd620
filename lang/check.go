package lang

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// FileOptions are the Starlark dialect of recipes: while loops, top-level
// control flow, set() and reassigning globals are allowed; the sandbox
// limits bound what a loop can do.
var FileOptions = &syntax.FileOptions{
	Set:             true,
	While:           true,
	TopLevelControl: true,
	GlobalReassign:  true,
	Recursion:       true,
}

// ExtraPredeclared are names predeclared in recipes besides the builtins.
var ExtraPredeclared = []string{"args"}

// IsPredeclared reports whether name is predeclared in recipes.
func IsPredeclared(name string) bool {
	return IsBuiltin(name) || contains(ExtraPredeclared, name)
}

// Check parses and resolves a recipe without running it, and reports syntax
// errors, undefined names, misspelled keyword arguments of builtins and
// load() targets that do not exist. A nil resolver skips load checks.
func Check(filename string, src []byte, res *Resolver) []Diagnostic {
	f, err := FileOptions.Parse(filename, src, 0)
	if err != nil {
		var se syntax.Error
		if errors.As(err, &se) {
			return []Diagnostic{{Pos: se.Pos.String(), Message: se.Msg}}
		}
		return []Diagnostic{{Pos: filename, Message: err.Error()}}
	}
	var diags []Diagnostic
	if err := resolve.File(f, IsPredeclared, starlark.Universe.Has); err != nil {
		var list resolve.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				diags = append(diags, Diagnostic{Pos: e.Pos.String(), Message: improveResolveMsg(e.Msg)})
			}
		} else {
			diags = append(diags, Diagnostic{Pos: filename, Message: err.Error()})
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			diags = append(diags, checkCall(n)...)
		case *syntax.LoadStmt:
			if res != nil {
				diags = append(diags, checkLoad(filename, n, res)...)
			}
		}
		return true
	})
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Pos < diags[j].Pos })
	return diags
}

// checkCall checks the keyword arguments of a call to a builtin.
func checkCall(call *syntax.CallExpr) []Diagnostic {
	id, ok := call.Fn.(*syntax.Ident)
	if !ok {
		return nil
	}
	if b, ok := id.Binding.(*resolve.Binding); !ok || b.Scope != resolve.Predeclared {
		return nil
	}
	var valid []string
	maxPositional := 1
	if a, ok := ActionForBuiltin(id.Name); ok {
		valid = a.Keywords()
		if a.Positional == "" && !a.MapForm {
			maxPositional = 0
		}
	} else if fn, ok := LookupFunction(id.Name); ok {
		valid = fn.Params
		maxPositional = len(fn.Params)
	} else {
		return nil
	}
	var diags []Diagnostic
	positional := 0
	for _, arg := range call.Args {
		bin, ok := arg.(*syntax.BinaryExpr)
		if !ok || bin.Op != syntax.EQ {
			if u, ok := arg.(*syntax.UnaryExpr); ok && (u.Op == syntax.STAR || u.Op == syntax.STARSTAR) {
				return diags // *args / **kwargs: cannot check statically
			}
			positional++
			continue
		}
		kw := bin.X.(*syntax.Ident).Name
		if !contains(valid, kw) {
			start, _ := bin.Span()
			msg := fmt.Sprintf("%s has no keyword argument %q", id.Name, kw)
			if c := closest(kw, valid); c != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", c)
			}
			msg += "; valid: " + strings.Join(valid, ", ")
			diags = append(diags, Diagnostic{Pos: start.String(), Message: msg})
		}
	}
	if positional > maxPositional {
		start, _ := call.Span()
		diags = append(diags, Diagnostic{Pos: start.String(),
			Message: fmt.Sprintf("%s takes at most %d positional argument(s), got %d", id.Name, maxPositional, positional)})
	}
	return diags
}

// checkLoad checks that a load target resolves and defines the loaded names.
func checkLoad(from string, ld *syntax.LoadStmt, res *Resolver) []Diagnostic {
	module := ld.ModuleName()
	pos := ld.Load.String()
	_, src, err := res.Resolve(from, module)
	if err != nil {
		return []Diagnostic{{Pos: pos, Message: err.Error()}}
	}
	f, err := FileOptions.Parse(module, src, 0)
	if err != nil {
		return []Diagnostic{{Pos: pos, Message: fmt.Sprintf("module %s does not parse: %v", module, err)}}
	}
	defined := topLevelNames(f)
	var diags []Diagnostic
	for _, name := range ld.From {
		if !defined[name.Name] {
			diags = append(diags, Diagnostic{Pos: name.NamePos.String(), Message: fmt.Sprintf("module %s defines no %q", module, name.Name)})
		}
	}
	return diags
}

func topLevelNames(f *syntax.File) map[string]bool {
	names := map[string]bool{}
	for _, stmt := range f.Stmts {
		switch s := stmt.(type) {
		case *syntax.DefStmt:
			names[s.Name.Name] = true
		case *syntax.AssignStmt:
			if id, ok := s.LHS.(*syntax.Ident); ok {
				names[id.Name] = true
			}
		case *syntax.LoadStmt:
			for _, to := range s.To {
				names[to.Name] = true
			}
		}
	}
	return names
}
