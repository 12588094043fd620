package browser

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/types"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// tsType is a type as testdata/enginetypes/returns.cjs describes it.
type tsType struct {
	Kind  string             `json:"kind"`
	Props map[string]*tsType `json:"props"`
	Index *tsType            `json:"index"`
	Of    json.RawMessage    `json:"of"`
	Name  string             `json:"name"`
	// Open is an object literal of a .js file: properties assigned to it
	// later are not in Props.
	Open bool `json:"open"`
}

// members is a union's members, or an array's element as a list of one.
func (t *tsType) members() []*tsType {
	if len(t.Of) == 0 {
		return nil
	}
	if t.Of[0] == '[' {
		var list []*tsType
		json.Unmarshal(t.Of, &list)
		return list
	}
	var one tsType
	json.Unmarshal(t.Of, &one)
	return []*tsType{&one}
}

// entryModules are the in-page modules whose exports each kind of entry
// constant names.
var entryModules = map[string]string{
	"engineEntry":   "engine.js",
	"watchEntry":    "watch.js",
	"pageEntry":     "page.js",
	"pipelineEntry": "pipeline.js",
}

// TestEngineResultsDecodeIntoTheirTypes checks that what Go reads from
// each engine call is what the engine returns: for every call that passes
// an entry constant and an out value, each field of the Go type the result
// is decoded into must be a property of the return type TypeScript gives
// the entry's function (or of a member of it), with a matching kind
// (string, number, boolean, array, object). A field the engine never
// sends decodes as its zero value without an error: a renamed property
// in the engine, or a misspelt tag in Go, would go unseen.
func TestEngineResultsDecodeIntoTheirTypes(t *testing.T) {
	tsc := typeScriptCompiler(t)
	lib := filepath.Join(filepath.Dir(filepath.Dir(tsc)), "lib", "typescript.js")
	args := []string{"testdata/enginetypes/returns.cjs", lib, "inpage/tsconfig.json"}
	for _, m := range []string{"engine.js", "watch.js", "page.js", "pipeline.js"} {
		args = append(args, filepath.Join("inpage", m))
	}
	out, err := exec.Command("node", args...).Output()
	if err != nil {
		t.Fatalf("returns.cjs: %v", err)
	}
	var returns map[string]*tsType
	if err := json.Unmarshal(out, &returns); err != nil {
		t.Fatalf("returns.cjs output: %v", err)
	}
	calls := engineCallsWithResults(t)
	if len(calls) < 40 {
		t.Fatalf("found %d engine calls with a result type; the search for them is broken", len(calls))
	}
	checked := 0
	cmp := &resultCheck{seen: map[string]map[string]bool{}, fields: map[string][]string{}, where: map[string]string{}}
	for _, c := range calls {
		rt, ok := returns[c.entry]
		if !ok {
			t.Errorf("%s: entry %s is not a function its module exports", c.pos, c.entry)
			continue
		}
		if rt.Kind == "any" {
			continue
		}
		checked++
		for _, problem := range cmp.compare(c.out, rt, "result", 0) {
			t.Errorf("%s: %s decodes %s's result into %s: %s", c.pos, c.callee, c.entry, c.out, problem)
		}
		cmp.note(c.out, c.pos+" ("+c.entry+")")
	}
	for _, problem := range cmp.neverSent() {
		t.Error(problem)
	}
	t.Logf("%d calls with a result type, %d compared (the others' functions return any)", len(calls), checked)
}

// engineCall is one call site: the entry it calls and the Go type its
// result is decoded into.
type engineCallSite struct {
	pos    string
	callee string
	entry  string
	out    types.Type
}

// engineCallsWithResults finds, in the package's own files, the calls
// that pass an entry constant and a pointer as the callee's out parameter.
func engineCallsWithResults(t *testing.T) []engineCallSite {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("load package: %v %v", err, pkgs)
	}
	pkg := pkgs[0]
	entries := entryNames(pkg)
	var sites []engineCallSite
	for _, file := range pkg.Syntax {
		name := pkg.Fset.Position(file.Pos()).Filename
		if strings.HasSuffix(name, "_gen.go") {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			entry := ""
			for _, a := range call.Args {
				if e := entryIn(a, pkg.TypesInfo, entries); e != "" {
					entry = e
				}
			}
			if entry == "" {
				return true
			}
			sig, _ := pkg.TypesInfo.TypeOf(call.Fun).(*types.Signature)
			if sig == nil {
				return true
			}
			if r := sig.Results(); decodingWrappers[calleeName(call)] && !hasOut(sig) && r.Len() == 2 {
				sites = append(sites, engineCallSite{
					pos:    shortPos(pkg.Fset.Position(call.Pos()).String()),
					callee: types.ExprString(call.Fun),
					entry:  entry,
					out:    r.At(0).Type(),
				})
			}
			for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
				if sig.Params().At(i).Name() != "out" {
					continue
				}
				ptr, ok := pkg.TypesInfo.TypeOf(call.Args[i]).(*types.Pointer)
				if !ok {
					continue // nil: the result is not read
				}
				sites = append(sites, engineCallSite{
					pos:    shortPos(pkg.Fset.Position(call.Pos()).String()),
					callee: types.ExprString(call.Fun),
					entry:  entry,
					out:    ptr.Elem(),
				})
			}
			return true
		})
	}
	return sites
}

// decodingWrappers take an entry and return its result decoded into their
// first result's type.
var decodingWrappers = map[string]bool{"feedCall": true}

// calleeName is the name of the function or method call calls.
func calleeName(call *ast.CallExpr) string {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// hasOut reports whether sig has a parameter named out.
func hasOut(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i).Name() == "out" {
			return true
		}
	}
	return false
}

func shortPos(p string) string { return filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p) }

// entryNames maps each entry constant to its module and function
// ("engine.js:find"), read from the generated declarations.
func entryNames(pkg *packages.Package) map[types.Object]string {
	out := map[types.Object]string{}
	for _, file := range pkg.Syntax {
		for id, obj := range pkg.TypesInfo.Defs {
			if obj == nil || obj.Parent() != pkg.Types.Scope() {
				continue
			}
			named, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			if _, ok := entryModules[named.Obj().Name()]; !ok {
				continue
			}
			if _, done := out[obj]; done {
				continue
			}
			_ = id
			out[obj] = ""
		}
		ast.Inspect(file, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
				return true
			}
			obj := pkg.TypesInfo.Defs[vs.Names[0]]
			if _, isEntry := out[obj]; !isEntry {
				return true
			}
			lit, ok := vs.Values[0].(*ast.CompositeLit)
			if !ok || len(lit.Elts) != 1 {
				return true
			}
			if s, ok := lit.Elts[0].(*ast.BasicLit); ok {
				name, _ := strconv.Unquote(s.Value)
				out[obj] = name
			}
			return true
		})
	}
	return out
}

// entryIn is the entry constant expression a names (itself, or the
// receiver of a method call on it), "" when none.
func entryIn(a ast.Expr, info *types.Info, entries map[types.Object]string) string {
	found := ""
	ast.Inspect(a, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if name, ok := entries[info.Uses[id]]; ok && name != "" {
				found = name
			}
		}
		return found == ""
	})
	return found
}

// compareResult lists where the Go type g would read something the
// TypeScript type ts never has.
func (rc *resultCheck) compare(g types.Type, ts *tsType, path string, depth int) []string {
	if depth > 6 || ts == nil || ts.Kind == "any" || ts.Kind == "lib" || ts.Kind == "function" {
		return nil
	}
	if decodesItself(g) {
		return nil
	}
	if ts.Kind == "union" {
		if merged := mergedObject(ts); merged != nil && isStructOrMap(g) {
			return rc.compare(g, merged, path, depth)
		}
		var best []string
		nonNull := 0
		for _, m := range ts.members() {
			if m.Kind == "null" {
				continue
			}
			nonNull++
			p := rc.compare(g, m, path, depth)
			if len(p) == 0 {
				return nil
			}
			if best == nil || len(p) < len(best) {
				best = p
			}
		}
		if nonNull == 0 {
			return nil // always null: nothing is read
		}
		return best
	}
	if ts.Kind == "null" {
		return nil
	}
	switch u := g.Underlying().(type) {
	case *types.Pointer:
		return rc.compare(u.Elem(), ts, path, depth)
	case *types.Interface:
		return nil
	case *types.Basic:
		want := map[types.BasicInfo]string{types.IsString: "string", types.IsBoolean: "boolean", types.IsNumeric: "number"}
		for flag, kind := range want {
			if u.Info()&flag != 0 && ts.Kind != kind {
				return []string{fmt.Sprintf("%s is a Go %s, the engine gives %s", path, u, ts.Kind)}
			}
		}
		return nil
	case *types.Slice, *types.Array:
		if ts.Kind != "array" {
			return []string{fmt.Sprintf("%s is a Go %s, the engine gives %s", path, g, ts.Kind)}
		}
		var elem types.Type
		if s, ok := u.(*types.Slice); ok {
			elem = s.Elem()
		} else {
			elem = u.(*types.Array).Elem()
		}
		if m := ts.members(); len(m) == 1 {
			return rc.compare(elem, m[0], path+"[]", depth+1)
		}
		return nil
	case *types.Map:
		if ts.Kind != "object" {
			return []string{fmt.Sprintf("%s is a Go map, the engine gives %s", path, ts.Kind)}
		}
		return nil
	case *types.Struct:
		if ts.Kind != "object" {
			return []string{fmt.Sprintf("%s is a Go struct, the engine gives %s", path, ts.Kind)}
		}
		key := types.TypeString(derefType(g), nil)
		if rc.seen[key] == nil {
			rc.seen[key] = map[string]bool{}
		}
		var problems []string
		for name, ft := range jsonFields(u) {
			prop := propFold(ts, name)
			if prop == nil && ts.Index == nil && !ts.Open {
				continue // another call may send it (neverSent)
			}
			rc.seen[key][name] = true
			if prop != nil {
				problems = append(problems, rc.compare(ft, prop, path+"."+name, depth+1)...)
			}
		}
		return problems
	}
	return nil
}

// resultCheck compares result types and remembers, for each Go struct
// type, the fields some engine result has.
type resultCheck struct {
	// seen are the JSON names each struct type (by type string) was
	// sent, by some call.
	seen map[string]map[string]bool
	// fields are each struct type's JSON names, where the first call
	// that decodes into it.
	fields map[string][]string
	where  map[string]string
}

// note records the struct types g decodes into (g itself and the
// structs of its fields), for neverSent.
func (rc *resultCheck) note(g types.Type, where string) {
	var walk func(types.Type, int)
	walk = func(g types.Type, depth int) {
		if depth > 6 || decodesItself(g) {
			return
		}
		switch u := derefType(g).Underlying().(type) {
		case *types.Struct:
			key := types.TypeString(derefType(g), nil)
			if _, done := rc.fields[key]; done {
				return
			}
			fields := jsonFields(u)
			rc.fields[key] = slices.Sorted(func(yield func(string) bool) {
				for k := range fields {
					if !yield(k) {
						return
					}
				}
			})
			rc.where[key] = where
			for _, ft := range fields {
				walk(ft, depth+1)
			}
		case *types.Slice:
			walk(u.Elem(), depth+1)
		case *types.Map:
			walk(u.Elem(), depth+1)
		}
	}
	walk(g, 0)
}

// neverSent lists the fields of the struct types results decode into
// that no compared call's result has (unless the type's own Go code sets
// them: resultFieldsSetInGo).
func (rc *resultCheck) neverSent() []string {
	var problems []string
	for key, names := range rc.fields {
		seen, compared := rc.seen[key]
		if !compared {
			continue // every result decoded into it was typed any
		}
		short := key[strings.LastIndex(key, "/")+1:]
		for _, name := range names {
			if !seen[name] && !resultFieldsSetInGo[short+"."+name] {
				problems = append(problems, fmt.Sprintf("%s.%s (decoded at %s) is never in an engine result: the engine does not send it, or calls it otherwise", short, name, rc.where[key]))
			}
		}
	}
	slices.Sort(problems)
	return problems
}

// resultFieldsSetInGo are fields of result types that Go fills after
// decoding (the same struct is the step's answer), never the engine.
var resultFieldsSetInGo = map[string]bool{}

// setInGo are types embedded in result types whose fields Go fills after
// decoding: Effect is what the action's watch saw.
var setInGo = map[string]bool{"Effect": true}

// propFold is ts's property name, matched as encoding/json matches it
// (exactly, else without case).
func propFold(ts *tsType, name string) *tsType {
	if p, ok := ts.Props[name]; ok {
		return p
	}
	for k, p := range ts.Props {
		if strings.EqualFold(k, name) {
			return p
		}
	}
	return nil
}

// jsonFields are the fields encoding/json decodes into s, by JSON name
// (embedded structs' fields included).
func jsonFields(s *types.Struct) map[string]types.Type {
	out := map[string]types.Type{}
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		tag := reflect.StructTag(s.Tag(i)).Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Embedded() && name == "" {
			if n, ok := derefType(f.Type()).(*types.Named); ok && setInGo[n.Obj().Name()] {
				continue
			}
			if es, ok := derefType(f.Type()).Underlying().(*types.Struct); ok {
				for k, v := range jsonFields(es) {
					out[k] = v
				}
				continue
			}
		}
		if !f.Exported() {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		out[name] = f.Type()
	}
	return out
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// decodesItself reports whether g has its own UnmarshalJSON (or is raw
// JSON), so its shape is its own business.
func decodesItself(g types.Type) bool {
	if n, ok := derefType(g).(*types.Named); ok {
		if n.Obj().Name() == "RawMessage" {
			return true
		}
		ms := types.NewMethodSet(types.NewPointer(n))
		for i := 0; i < ms.Len(); i++ {
			if ms.At(i).Obj().Name() == "UnmarshalJSON" {
				return true
			}
		}
	}
	return false
}

// mergedObject is the object a union of object types reads as (each
// property of any member, with the union of its types), nil when the
// union has no object member. A function that returns an error shape on
// one path and its answer on another gives such a union, and the Go type
// it decodes into has the fields of both.
func mergedObject(u *tsType) *tsType {
	var objects []*tsType
	for _, m := range u.members() {
		if m.Kind == "object" {
			objects = append(objects, m)
		}
	}
	if len(objects) == 0 {
		return nil
	}
	merged := &tsType{Kind: "object", Props: map[string]*tsType{}}
	types := map[string][]*tsType{}
	for _, o := range objects {
		for k, t := range o.Props {
			types[k] = append(types[k], t)
		}
		if o.Index != nil {
			merged.Index = o.Index
		}
		merged.Open = merged.Open || o.Open
	}
	for k, list := range types {
		if len(list) == 1 {
			merged.Props[k] = list[0]
			continue
		}
		of, _ := json.Marshal(list)
		merged.Props[k] = &tsType{Kind: "union", Of: of}
	}
	return merged
}

// isStructOrMap reports whether g (through pointers) decodes a JSON object.
func isStructOrMap(g types.Type) bool {
	switch derefType(g).Underlying().(type) {
	case *types.Struct, *types.Map:
		return true
	}
	return false
}
