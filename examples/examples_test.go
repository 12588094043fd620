package examples

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/runtime"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

func options(t *testing.T) runtime.Options {
	c := browsertest.Require(t)
	return runtime.Options{Endpoint: c.Endpoint, Headless: true, Stdlib: stdlib.FS}
}

// closeTab closes the tab an example left open.
func closeTab(t *testing.T, o runtime.Options, out *runtime.Output) {
	if out.Tab != "" {
		runtime.RunJSON(context.Background(), []byte(`{"steps":[{"closeTab":"`+out.Tab+`"}]}`), o)
	}
}

// TestExamples runs every example recipe and JSON command against the
// demo site. The recipes check their own results (fail() on a surprise);
// here each must finish ok.
func TestExamples(t *testing.T) {
	srv, err := Serve("")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	previous := state.SetSitesDir(t.TempDir())
	t.Cleanup(func() { state.SetSitesDir(previous) })
	o := options(t)
	names, _ := fs.Glob(Files, "*")
	if len(names) < 8 {
		t.Fatalf("only %d examples", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, _ := fs.ReadFile(Files, name)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var out *runtime.Output
			switch filepath.Ext(name) {
			case ".star":
				out = runtime.Run(ctx, runtime.Program{Name: name, Source: src, Args: map[string]string{"base_url": srv.URL}}, o)
			case ".json":
				_, out = runtime.RunJSON(ctx, []byte(strings.ReplaceAll(string(src), "{{base}}", srv.URL)), o)
			default:
				t.Fatalf("unexpected file %s in examples", name)
			}
			defer closeTab(t, o, out)
			if !out.OK() {
				t.Fatalf("%s failed: %s", name, out.JSON())
			}
			t.Logf("%s: result %v", name, out.Result)
		})
	}
}
