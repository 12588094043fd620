package browser

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestEngineParsesWithoutWarnings parses the in-page engine as it is
// injected (every file, concatenated in one closure) with esbuild: a syntax
// error, and what esbuild warns about (a duplicate key or case, a
// comparison with NaN or -0, an assignment to a constant, typeof against a
// string no type has…), fails here instead of in a page.
func TestEngineParsesWithoutWarnings(t *testing.T) {
	for _, b := range []bundle{engineBundle(), watchBundle(), pageBundle()} {
		res := api.Transform(b.source, api.TransformOptions{Loader: api.LoaderJS, Target: api.ES2022, Sourcefile: b.global + ".js", LogLevel: api.LogLevelSilent})
		for _, msgs := range [][]api.Message{res.Errors, res.Warnings} {
			for _, m := range msgs {
				where := ""
				if m.Location != nil {
					where = strings.TrimSpace(m.Location.LineText)
					if b.global == "__cdpSkill" {
						where = engineFileAt(m.Location.Line) + ": " + where
					}
				}
				t.Errorf("%s: %s (%s)", b.global, m.Text, where)
			}
		}
	}
}

// engineFileAt names the engine file and line of a line of engineSource.
func engineFileAt(line int) string {
	src := engineSource()
	header := strings.Count(src[:strings.Index(src, "if (window.__cdpSkill")], "\n") + 1
	line -= header
	for _, f := range engineFiles {
		data, _ := inpage.ReadFile("inpage/" + f)
		n := strings.Count(string(data), "\n") + 1
		if line <= n {
			return f + ":" + strconv.Itoa(line)
		}
		line -= n
	}
	return "engine wrapper"
}

// TestEngineEntryPointsExist: every engine method or field the Go code
// names (engineCall(…, "name", …), window.__cdpSkill.name in JavaScript it
// sends) is defined by the engine (or set by JavaScript the Go code sends),
// so a misspelled entry point fails here rather than as a TypeError in a
// page.
func TestEngineEntryPointsExist(t *testing.T) {
	defined := map[string]bool{}
	inS := false
	for _, line := range strings.Split(engineSource()+"\n"+watchBundle().source, "\n") {
		switch {
		case strings.HasPrefix(line, "const S = {"):
			inS = true
		case inS && line == "};":
			inS = false
		case inS:
			if m := regexp.MustCompile(`^  (?:async )?([A-Za-z_$][\w$]*)\s*[(:]`).FindStringSubmatch(line); m != nil {
				defined[m[1]] = true
			}
		}
		for _, m := range regexp.MustCompile(`\bS\.([A-Za-z_$][\w$]*)\s*=[^=]`).FindAllStringSubmatch(line, -1) {
			defined[m[1]] = true
		}
	}
	if len(defined) < 30 {
		t.Fatalf("found only %d engine methods: has the engine's shape changed?", len(defined))
	}
	files, _ := filepath.Glob("*.go")
	assign := regexp.MustCompile(`\bS\.([A-Za-z_$][\w$]*)\s*=[^=]`)
	used := map[string][]string{}
	call := regexp.MustCompile(`(?:engineCall|EngineCall|watchCall)\(s?ctx, [^,]+, "([A-Za-z_$][\w$]*)"`)
	global := regexp.MustCompile(`__cdpSkill\.([A-Za-z_$][\w$]*)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// JavaScript sent from Go may set a field of the engine too.
		for _, m := range assign.FindAllStringSubmatch(string(data), -1) {
			defined[m[1]] = true
		}
		for _, re := range []*regexp.Regexp{call, global} {
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				if !slices.Contains(used[m[1]], f) {
					used[m[1]] = append(used[m[1]], f)
				}
			}
		}
	}
	if len(used) < 20 {
		t.Fatalf("found only %d entry points used from Go", len(used))
	}
	for name, where := range used {
		if name != "version" && !defined[name] {
			t.Errorf("%s calls the engine's %s, which the engine does not define", strings.Join(where, ", "), name)
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
