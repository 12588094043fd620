package lang

import (
	"fmt"
	"strings"

	"go.starlark.net/syntax"
)

// Recipe describes a function of a site profile's recipes module.
type Recipe struct {
	Name   string   `json:"name"`
	Params []string `json:"params"`
	Doc    string   `json:"doc,omitempty"`
}

// SiteRecipes lists the public functions (names not starting with _) of a
// recipes module with their parameters and the first line of their
// docstring, and whether the module declares domain defaults.
func SiteRecipes(filename string, src []byte) ([]Recipe, bool, error) {
	f, err := FileOptions.Parse(filename, src, syntax.RetainComments)
	if err != nil {
		return nil, false, err
	}
	var out []Recipe
	hasDefaults := false
	for _, stmt := range f.Stmts {
		switch s := stmt.(type) {
		case *syntax.DefStmt:
			if strings.HasPrefix(s.Name.Name, "_") {
				continue
			}
			r := Recipe{Name: s.Name.Name, Params: []string{}}
			for _, p := range s.Params {
				r.Params = append(r.Params, paramString(p))
			}
			r.Doc = docstring(s.Body)
			out = append(out, r)
		case *syntax.AssignStmt:
			if id, ok := s.LHS.(*syntax.Ident); ok && id.Name == "defaults" {
				hasDefaults = true
			}
		}
	}
	return out, hasDefaults, nil
}

func paramString(p syntax.Expr) string {
	switch x := p.(type) {
	case *syntax.Ident:
		return x.Name
	case *syntax.BinaryExpr:
		if id, ok := x.X.(*syntax.Ident); ok {
			if lit, ok := x.Y.(*syntax.Literal); ok {
				return fmt.Sprintf("%s=%s", id.Name, lit.Raw)
			}
			return id.Name + "=…"
		}
	case *syntax.UnaryExpr:
		if id, ok := x.X.(*syntax.Ident); ok {
			return x.Op.String() + id.Name
		}
	}
	return "?"
}

func docstring(body []syntax.Stmt) string {
	if len(body) == 0 {
		return ""
	}
	es, ok := body[0].(*syntax.ExprStmt)
	if !ok {
		return ""
	}
	lit, ok := es.X.(*syntax.Literal)
	if !ok || lit.Token != syntax.STRING {
		return ""
	}
	s, _ := lit.Value.(string)
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	return s
}

// SiteModule is the load() name of a site's recipes: @site/github.com.
func SiteModule(domain string) string { return "@site/" + domain }
