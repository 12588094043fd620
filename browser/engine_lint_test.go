package browser

import (
	"bytes"
	"errors"
	goast "go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/internal/jsbundle"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	jsparse "github.com/tdewolff/parse/v2/js"
)

// TestEngineParsesWithoutWarnings parses each installed script as it is
// injected with esbuild: a syntax error, and what esbuild warns about (a
// duplicate key or case, a comparison with NaN or -0, an assignment to a
// constant, typeof against a string no type has…), fails here instead of
// in a page. (go generate fails on the same warnings in the modules.)
func TestEngineParsesWithoutWarnings(t *testing.T) {
	for _, b := range []bundle{engineBundle(), watchBundle(), pageBundle()} {
		res := api.Transform(b.source, api.TransformOptions{Loader: api.LoaderJS, Target: api.ES2022, Sourcefile: b.global + ".js", LogLevel: api.LogLevelSilent})
		for _, msgs := range [][]api.Message{res.Errors, res.Warnings} {
			for _, m := range msgs {
				where := ""
				if m.Location != nil {
					where = strings.TrimSpace(m.Location.LineText)
				}
				t.Errorf("%s: %s (%s)", b.global, m.Text, where)
			}
		}
	}
}

// TestEngineBundlesUpToDate: the committed bundles and their Go constants
// are what go generate makes of the modules now, so an edit to a module
// without go generate (or to a generated file by hand) fails here.
func TestEngineBundlesUpToDate(t *testing.T) {
	files, err := jsbundle.Generate("inpage")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(jsbundle.Specs)+1 {
		t.Fatalf("generated %d files, want a bundle per spec and the Go file", len(files))
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./browser (%v)", name, err)
		}
	}
	// The installed source is the committed bundle.
	if engineSource() != string(files[filepath.Join("inpage", jsbundle.BundleDir, "engine.js")]) {
		t.Error("engineSource is not the generated engine bundle")
	}
}

// browserGlobals are the names the engine's modules may use without
// importing them: the browser's and JavaScript's own.
var browserGlobals = strings.Fields(`Array ArrayBuffer CSS ClipboardEvent DataTransfer DataView Date Document DragEvent
	Element Error Event HTMLCollection HTMLElement HTMLInputElement HTMLSelectElement
	HTMLTextAreaElement Infinity JSON Map Math MessageChannel MutationObserver Node NodeFilter
	NodeList Number Object Promise RegExp Set String Symbol WeakMap WeakSet Window XMLHttpRequest
	arguments clearTimeout devicePixelRatio document getComputedStyle innerHeight innerWidth isNaN
	location parseFloat parseInt performance requestAnimationFrame scrollX scrollY setTimeout
	undefined window`)

// TestEngineModulesImportWhatTheyUse: every name a module of the engine
// uses is declared in it, imported, or a browser global, so a name used
// without its import (or misspelled) fails here rather than as a
// ReferenceError in a page. esbuild, at go generate, fails on an import of
// a name its module does not export.
func TestEngineModulesImportWhatTheyUse(t *testing.T) {
	files, _ := filepath.Glob("inpage/*.js")
	if len(files) < 15 {
		t.Fatalf("found only %d engine modules", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		free, err := unimported(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, name := range free {
			if !slices.Contains(browserGlobals, name) {
				t.Errorf("%s uses %s, which it neither declares nor imports", f, name)
			}
		}
	}
}

// TestEngineModuleCheckCatches: the check above sees a name used without
// its import, inside a function too.
func TestEngineModuleCheckCatches(t *testing.T) {
	src := "import { styleOf, cache as c } from './dom.js';\nconst x = 1;\nexport function f(el) { const y = c; return styleOf(el) && hiddenForAT(el, x, y); }\n"
	free, err := unimported([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(free, []string{"hiddenForAT"}) {
		t.Errorf("free names %v, want [hiddenForAT]", free)
	}
}

// unimported lists the names a module uses that it neither declares nor
// imports.
func unimported(src []byte) ([]string, error) {
	ast, err := jsparse.Parse(parse.NewInputBytes(src), jsparse.Options{})
	if err != nil {
		return nil, err
	}
	imported := map[string]bool{}
	for _, st := range ast.BlockStmt.List {
		if im, ok := st.(*jsparse.ImportStmt); ok {
			if im.Default != nil {
				imported[string(im.Default)] = true
			}
			for _, a := range im.List {
				if a.Binding != nil {
					imported[string(a.Binding)] = true
				}
			}
		}
	}
	var free []string
	for _, v := range ast.BlockStmt.Scope.Undeclared {
		if !imported[string(v.Data)] {
			free = append(free, string(v.Data))
		}
	}
	return free, nil
}

// TestEngineEntryPointsExist: what Go's JavaScript still names on an
// installed global by hand (window.__cdpSkill.field, or E.name / S.name in
// a script that binds E or S to the global) is an entry point of that
// bundle or a field of its state. Calls from Go go through the generated
// constants, which only compile when they exist.
func TestEngineEntryPointsExist(t *testing.T) {
	defined := map[string]bool{"version": true}
	for _, s := range jsbundle.Specs {
		b, err := jsbundle.Build("inpage", s)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range b.Entries {
			defined[e] = true
		}
	}
	assign := regexp.MustCompile(`\bS\.([A-Za-z_$][\w$]*)\s*=[^=]`)
	modules, _ := filepath.Glob("inpage/*.js")
	for _, f := range modules {
		data, _ := os.ReadFile(f)
		for _, m := range assign.FindAllStringSubmatch(string(data), -1) {
			defined[m[1]] = true
		}
	}
	// The engine's state, set up in state.js (initEngineState).
	state, _ := os.ReadFile("inpage/state.js")
	for _, m := range regexp.MustCompile(`(?m)^    (\w+): `).FindAllStringSubmatch(string(state), -1) {
		defined[m[1]] = true
	}
	global := regexp.MustCompile(`__cdpSkill(?:Page|Watch)?\.([A-Za-z_$][\w$]*)`)
	// E or S bound to the engine's global, or to a function literal's
	// surface (the pipeline's: const E = (<bundle>)()).
	alias := regexp.MustCompile(`const ([ES]) = (?:window\.__cdpSkill|\(")`)
	files, _ := filepath.Glob("*.go")
	used := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		var lits []string
		goast.Inspect(file, func(n goast.Node) bool {
			if l, ok := n.(*goast.BasicLit); ok && l.Kind == token.STRING {
				lits = append(lits, l.Value)
			}
			return true
		})
		all := strings.Join(lits, "\n")
		// JavaScript sent from Go may set a field of the engine too.
		for _, m := range assign.FindAllStringSubmatch(all, -1) {
			defined[m[1]] = true
		}
		res := []*regexp.Regexp{global}
		for _, m := range alias.FindAllStringSubmatch(all, -1) {
			res = append(res, regexp.MustCompile(`\b`+m[1]+`\.([A-Za-z_$][\w$]*)`))
		}
		for _, re := range res {
			for _, m := range re.FindAllStringSubmatch(all, -1) {
				if !slices.Contains(used[m[1]], f) {
					used[m[1]] = append(used[m[1]], f)
				}
			}
		}
	}
	if len(used) < 8 {
		t.Fatalf("found only %d engine names spelled in Go's JavaScript", len(used))
	}
	for name, where := range used {
		if !defined[name] {
			t.Errorf("%s names the engine's %s, which no bundle defines", strings.Join(where, ", "), name)
		}
	}
}

// TestEngineErrorCodes: the engine's errors are told by their code, not
// their text.
func TestEngineErrorCodes(t *testing.T) {
	for _, c := range []struct {
		text string
		kind Kind
		msg  string
	}{
		{`cdpSkill.selector: invalid CSS selector "a[[": bad`, KindSelector, `invalid CSS selector "a[[": bad`},
		{`Uncaught cdpSkill.not-found: root "#x" matches no element`, KindElementNotFound, `root "#x" matches no element`},
		{`cdpSkill.stale: ref s1e2 is gone: take a new snapshot`, KindStaleElement, `ref s1e2 is gone: take a new snapshot`},
		{`cdpSkill.input: unknown output mode "x"`, KindStepValidation, `unknown output mode "x"`},
		{`cdpSkill.other: something`, KindJavaScript, `page engine m failed: something`},
		{`SyntaxError: Failed to execute 'querySelector'`, KindSelector, `SyntaxError: Failed to execute 'querySelector'`},
		{`Error: matches no element`, KindJavaScript, `page engine m failed: matches no element`},
	} {
		var e *Error
		if err := engineError("m", &JSError{Text: c.text}); !errors.As(err, &e) || e.Kind != c.kind || e.Message != c.msg {
			t.Errorf("%q: got %v", c.text, err)
		}
	}
}
