package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envFuncs are the calls that read or change the process environment.
var envFuncs = map[string]map[string]bool{
	"os":      {"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true, "Setenv": true, "Unsetenv": true, "Clearenv": true},
	"syscall": {"Getenv": true, "Environ": true, "Setenv": true, "Unsetenv": true, "Clearenv": true},
}

// envAllowed are the environment calls the test harness package may make,
// as "dir: call(first argument)": it reads CI and CHROME_PATH like the
// command does, and hands its state and site-profile dirs to the
// cdp-skill processes tests start. Nothing else under browser/ touches
// the environment.
var envAllowed = map[string]bool{
	`browser/browsertest: os.Getenv("CI")`:                 true,
	`browser/browsertest: os.Getenv(chrome.EnvChromePath)`: true,
	`browser/browsertest: os.Setenv(state.EnvDir)`:         true,
	`browser/browsertest: os.Setenv(state.EnvSitesDir)`:    true,
}

// TestBrowserReadsNoEnvironment fails when a package under browser/ reads
// or sets an environment variable: the command reads them (cmd,
// runtime.ReadEnvironment) and passes the values down as options, so
// browser's behaviour is what its caller asked for (issue 16).
func TestBrowserReadsNoEnvironment(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := walkSources(t, root, "browser", func(path, rel string) error {
		calls, err := envCalls(path)
		if err != nil {
			return err
		}
		for _, c := range calls {
			if !envAllowed[filepath.ToSlash(filepath.Dir(rel))+": "+c.call] {
				t.Errorf("%s:%d calls %s: package browser reads no environment variable; read it in runtime/environ.go or cmd and pass it down as an option", rel, c.line, c.call)
			}
		}
		return nil
	})
	if checked < 50 {
		t.Fatalf("only %d files checked under browser/", checked)
	}
}

// TestEnvCallsFindsEveryForm: the rule sees renamed imports and syscall,
// and reports each call with its first argument.
func TestEnvCallsFindsEveryForm(t *testing.T) {
	src := `package x

import (
	o "os"
	"syscall"
)

func f() {
	_ = o.Getenv("A")
	_, _ = o.LookupEnv(name)
	_ = o.Environ()
	o.Setenv(state.EnvDir, "d")
	_, _ = syscall.Getenv("B")
	_ = o.Getwd
}
`
	path := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	calls, err := envCalls(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.call)
	}
	want := `os.Getenv("A") os.LookupEnv(name) os.Environ() os.Setenv(state.EnvDir) syscall.Getenv("B")`
	if strings.Join(got, " ") != want {
		t.Errorf("calls = %q, want %q", got, want)
	}
}

// envCall is one call of an environment function.
type envCall struct {
	call string
	line int
}

// envCalls lists the environment calls in a Go file, as
// "pkg.Func(first argument)" whatever name the file imports the package by.
func envCalls(path string) ([]envCall, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	names := map[string]string{} // local name → package path
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if envFuncs[p] == nil {
			continue
		}
		name := p
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = p
	}
	var out []envCall
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || !envFuncs[names[id.Name]][sel.Sel.Name] {
			return true
		}
		arg := ""
		if len(call.Args) > 0 {
			arg = types.ExprString(call.Args[0])
		}
		out = append(out, envCall{call: names[id.Name] + "." + sel.Sel.Name + "(" + arg + ")", line: fset.Position(call.Pos()).Line})
		return true
	})
	return out, nil
}
