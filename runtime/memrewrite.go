package runtime

import (
	"go.starlark.net/syntax"
)

// The operators and methods that can make a value far larger than their
// operands in one step (repetition, concatenation, formatting, join,
// replace, split, extend) run through predeclared builtins that check the
// program's memory budget before the value is allocated: Starlark itself
// bounds element counts, not bytes, and cannot be stopped inside one
// allocation. The names below cannot be written in Starlark source, so a
// recipe can neither shadow nor call them.
const (
	// operatorName + op is the builtin of a binary operator ("operator +")
	// or of an augmented assignment ("operator +=", which checks and
	// returns its right operand unchanged).
	operatorName = "operator "
	// methodName + name (e.g. ".join") returns the budgeted method.
	methodName = "."
)

// budgetedOps are the binary operators checked, by token.
var budgetedOps = map[syntax.Token]bool{syntax.PLUS: true, syntax.STAR: true, syntax.PERCENT: true, syntax.PIPE: true}

// budgetedAugmented maps the augmented assignments checked to their
// operator.
var budgetedAugmented = map[syntax.Token]syntax.Token{
	syntax.PLUS_EQ: syntax.PLUS, syntax.STAR_EQ: syntax.STAR, syntax.PERCENT_EQ: syntax.PERCENT, syntax.PIPE_EQ: syntax.PIPE,
}

// budgetedMethods are the methods (of strings, bytes and lists) checked.
var budgetedMethods = map[string]bool{
	"join": true, "replace": true, "format": true, "split": true, "rsplit": true,
	"splitlines": true, "extend": true,
}

// budgetRewrite rewrites f's expressions in place so that the budgeted
// operators and methods call their checking builtins. It runs before the
// file is resolved.
func budgetRewrite(f *syntax.File) {
	rewriteStmts(f.Stmts)
}

func rewriteStmts(stmts []syntax.Stmt) {
	for _, s := range stmts {
		rewriteStmt(s)
	}
}

func rewriteStmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		rewriteTarget(s.LHS)
		s.RHS = rewriteExpr(s.RHS)
		if op, ok := budgetedAugmented[s.Op]; ok {
			if lhs := copyPure(s.LHS); lhs != nil {
				s.RHS = &syntax.CallExpr{
					Fn:     &syntax.Ident{NamePos: s.OpPos, Name: operatorName + op.String() + "="},
					Lparen: s.OpPos, Args: []syntax.Expr{lhs, s.RHS}, Rparen: s.OpPos,
				}
			}
		}
	case *syntax.DefStmt:
		rewriteParams(s.Params)
		rewriteStmts(s.Body)
	case *syntax.ExprStmt:
		s.X = rewriteExpr(s.X)
	case *syntax.IfStmt:
		s.Cond = rewriteExpr(s.Cond)
		rewriteStmts(s.True)
		rewriteStmts(s.False)
	case *syntax.ForStmt:
		rewriteTarget(s.Vars)
		s.X = rewriteExpr(s.X)
		rewriteStmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = rewriteExpr(s.Cond)
		rewriteStmts(s.Body)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = rewriteExpr(s.Result)
		}
	}
}

// rewriteParams rewrites the default values of parameters.
func rewriteParams(params []syntax.Expr) {
	for _, p := range params {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = rewriteExpr(b.Y)
		}
	}
}

// rewriteTarget rewrites the operands inside an assignment target (the
// target itself must stay assignable).
func rewriteTarget(e syntax.Expr) {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X = rewriteExpr(e.X)
		e.Y = rewriteExpr(e.Y)
	case *syntax.DotExpr:
		e.X = rewriteExpr(e.X)
	case *syntax.TupleExpr:
		for _, x := range e.List {
			rewriteTarget(x)
		}
	case *syntax.ListExpr:
		for _, x := range e.List {
			rewriteTarget(x)
		}
	case *syntax.ParenExpr:
		rewriteTarget(e.X)
	}
}

func rewriteExprs(list []syntax.Expr) {
	for i, x := range list {
		list[i] = rewriteExpr(x)
	}
}

// rewriteExpr returns e with its budgeted operations rewritten.
func rewriteExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		if e.Op == syntax.EQ { // a keyword argument name=value
			e.Y = rewriteExpr(e.Y)
			return e
		}
		e.X, e.Y = rewriteExpr(e.X), rewriteExpr(e.Y)
		if budgetedOps[e.Op] {
			return &syntax.CallExpr{
				Fn:     &syntax.Ident{NamePos: e.OpPos, Name: operatorName + e.Op.String()},
				Lparen: e.OpPos, Args: []syntax.Expr{e.X, e.Y}, Rparen: e.OpPos,
			}
		}
	case *syntax.CallExpr:
		e.Fn = rewriteExpr(e.Fn)
		rewriteExprs(e.Args)
	case *syntax.DotExpr:
		e.X = rewriteExpr(e.X)
		if budgetedMethods[e.Name.Name] {
			return &syntax.CallExpr{
				Fn:     &syntax.Ident{NamePos: e.NamePos, Name: methodName + e.Name.Name},
				Lparen: e.Dot, Args: []syntax.Expr{e.X}, Rparen: e.NamePos,
			}
		}
	case *syntax.Comprehension:
		e.Body = rewriteExpr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				rewriteTarget(c.Vars)
				c.X = rewriteExpr(c.X)
			case *syntax.IfClause:
				c.Cond = rewriteExpr(c.Cond)
			}
		}
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = rewriteExpr(e.Cond), rewriteExpr(e.True), rewriteExpr(e.False)
	case *syntax.DictExpr:
		for _, x := range e.List {
			if de, ok := x.(*syntax.DictEntry); ok {
				de.Key, de.Value = rewriteExpr(de.Key), rewriteExpr(de.Value)
			}
		}
	case *syntax.IndexExpr:
		e.X, e.Y = rewriteExpr(e.X), rewriteExpr(e.Y)
	case *syntax.SliceExpr:
		e.X = rewriteExpr(e.X)
		if e.Lo != nil {
			e.Lo = rewriteExpr(e.Lo)
		}
		if e.Hi != nil {
			e.Hi = rewriteExpr(e.Hi)
		}
		if e.Step != nil {
			e.Step = rewriteExpr(e.Step)
		}
	case *syntax.LambdaExpr:
		rewriteParams(e.Params)
		e.Body = rewriteExpr(e.Body)
	case *syntax.ListExpr:
		rewriteExprs(e.List)
	case *syntax.TupleExpr:
		rewriteExprs(e.List)
	case *syntax.ParenExpr:
		e.X = rewriteExpr(e.X)
	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = rewriteExpr(e.X)
		}
	}
	return e
}

// copyPure returns a fresh copy of an assignment target whose evaluation
// has no effects (a name, or an index or field of names and literals), so
// it can be read once more to check an augmented assignment; nil for any
// other target (those are left to the memory guard).
func copyPure(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.Ident:
		return &syntax.Ident{NamePos: e.NamePos, Name: e.Name}
	case *syntax.Literal:
		c := *e
		return &c
	case *syntax.IndexExpr:
		x, y := copyPure(e.X), copyPure(e.Y)
		if x == nil || y == nil {
			return nil
		}
		return &syntax.IndexExpr{X: x, Lbrack: e.Lbrack, Y: y, Rbrack: e.Rbrack}
	case *syntax.DotExpr:
		x := copyPure(e.X)
		if x == nil {
			return nil
		}
		return &syntax.DotExpr{X: x, Dot: e.Dot, NamePos: e.NamePos, Name: &syntax.Ident{NamePos: e.Name.NamePos, Name: e.Name.Name}}
	}
	return nil
}
