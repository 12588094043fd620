package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2"
	jsparse "github.com/tdewolff/parse/v2/js"
)

// engineLayers is the layer table of the in-page engine's modules
// (browser/inpage), lowest first. A module imports only from its own layer
// or the layers below it, and the imports form no cycle
// (TestEngineModulesFormLayers). A new module gets its place here.
//
//   - leaves: the engine's shared state object, the watch's own bundle,
//     editor detection: modules that import nothing.
//   - dom: composed-tree traversal, styles, boxes, visibility; scroll
//     bookkeeping; serialization of values; the page world's own bundle
//     (page.js, which serializes values too).
//   - roles: ARIA roles of elements.
//   - names: accessible names, states and values; whether a field takes
//     text.
//   - refs: the ref registry (giving elements refs, resolving refs back).
//   - view: what the engine reads of the page: the snapshot, finding
//     elements, queries, the change log, cut-off notes, replaced widgets.
//   - act: actionability, hit tests, clicks, fills, gestures, forms, feeds.
//   - answers: the calls that make an answer: snapshot and search entry
//     points, capture after an action, extraction.
//   - entry: engine.js, whose exports are the engine's surface, and
//     pipeline.js, the pipeline's.
var engineLayers = []struct {
	name    string
	modules []string
}{
	{"leaves", []string{"state", "watch", "editors"}},
	{"dom", []string{"dom", "domversion", "scrollpending", "serialize", "visual", "page"}},
	{"roles", []string{"roles"}},
	{"names", []string{"names", "editable"}},
	{"refs", []string{"refs", "slider", "handover"}},
	{"view", []string{"snapshot", "find", "query", "frames", "changes", "cutoff", "replaced", "hidden"}},
	{"act", []string{"hittarget", "focusguard", "act", "gesture", "forms", "feed"}},
	{"answers", []string{"api", "capture", "extract"}},
	{"entry", []string{"engine", "pipeline"}},
}

// TestEngineModulesFormLayers: every module of the engine has a layer in
// engineLayers, imports nothing from a higher layer, and no chain of
// imports comes back to where it started.
func TestEngineModulesFormLayers(t *testing.T) {
	files, _ := filepath.Glob("inpage/*.js")
	if len(files) < 20 {
		t.Fatalf("found only %d engine modules", len(files))
	}
	graph := map[string][]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		deps, err := moduleImports(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		graph[strings.TrimSuffix(filepath.Base(f), ".js")] = deps
	}
	for _, p := range layerProblems(graph, layerOf()) {
		t.Error(p)
	}
}

// TestEngineLayerCheckCatches: the check above fails on a module without
// a layer, an import from a higher layer, an import of a module that is
// not there, and a cycle within one layer.
func TestEngineLayerCheckCatches(t *testing.T) {
	layers := map[string]int{"state": 0, "dom": 1, "names": 2, "refs": 2, "act": 3}
	tests := []struct {
		name  string
		graph map[string][]string
		want  string
	}{
		{"layered", map[string][]string{"state": {}, "dom": {"state"}, "names": {"dom", "refs"}, "refs": {"state"}, "act": {"names"}}, ""},
		{"no layer", map[string][]string{"dom": {"state"}, "extra": {"dom"}}, "extra has no layer"},
		{"upward", map[string][]string{"dom": {"act"}, "act": {}}, "dom (layer 1) imports act (layer 3)"},
		{"missing", map[string][]string{"act": {"gone"}}, "act imports gone, which is not a module"},
		{"cycle", map[string][]string{"names": {"refs"}, "refs": {"names"}}, "import cycle: names → refs → names"},
		{"self", map[string][]string{"dom": {"dom"}}, "import cycle: dom → dom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(layerProblems(tt.graph, layers), "\n")
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("problems %q, want one containing %q", got, tt.want)
			}
		})
	}
	src := "import { S } from './state.js';\nimport {\n  a, b\n} from './dom.js';\nexport { c } from './refs.js';\nexport function f() { return S; }\n"
	deps, err := moduleImports([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(deps, []string{"dom", "refs", "state"}) {
		t.Errorf("imports %v, want [dom refs state]", deps)
	}
}

// layerOf maps each module of engineLayers to its layer's index.
func layerOf() map[string]int {
	m := map[string]int{}
	for i, l := range engineLayers {
		for _, mod := range l.modules {
			m[mod] = i
		}
	}
	return m
}

// moduleImports lists the modules a module imports or re-exports from
// (./name.js → name), sorted.
func moduleImports(src []byte) ([]string, error) {
	ast, err := jsparse.Parse(parse.NewInputBytes(src), jsparse.Options{})
	if err != nil {
		return nil, err
	}
	var deps []string
	for _, st := range ast.BlockStmt.List {
		var from []byte
		switch s := st.(type) {
		case *jsparse.ImportStmt:
			from = s.Module
		case *jsparse.ExportStmt:
			from = s.Module
		}
		if from == nil {
			continue
		}
		spec := strings.Trim(string(from), `'"`)
		name, ok := strings.CutPrefix(spec, "./")
		if !ok || !strings.HasSuffix(name, ".js") {
			return nil, fmt.Errorf("import of %q: the engine's modules import each other as './name.js' only", spec)
		}
		deps = append(deps, strings.TrimSuffix(name, ".js"))
	}
	slices.Sort(deps)
	return slices.Compact(deps), nil
}

// layerProblems checks graph (module → the modules it imports) against
// layers (module → layer index).
func layerProblems(graph map[string][]string, layers map[string]int) []string {
	var out []string
	mods := make([]string, 0, len(graph))
	for m := range graph {
		mods = append(mods, m)
	}
	slices.Sort(mods)
	for _, m := range mods {
		lm, ok := layers[m]
		if !ok {
			out = append(out, m+" has no layer: give it one in engineLayers (engine_layers_test.go)")
			continue
		}
		for _, d := range graph[m] {
			if _, exists := graph[d]; !exists {
				out = append(out, fmt.Sprintf("%s imports %s, which is not a module", m, d))
			} else if ld, ok := layers[d]; ok && ld > lm {
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): move what it uses down, or the module up", m, lm, d, ld))
			}
		}
	}
	return append(out, importCycles(graph, mods)...)
}

// importCycles reports each cycle a depth-first walk of graph finds, as
// the chain of modules that closes it.
func importCycles(graph map[string][]string, mods []string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path, out []string
	var visit func(m string)
	visit = func(m string) {
		state[m] = onPath
		path = append(path, m)
		for _, d := range graph[m] {
			switch state[d] {
			case onPath:
				i := slices.Index(path, d)
				out = append(out, "import cycle: "+strings.Join(append(slices.Clone(path[i:]), d), " → "))
			case unseen:
				if _, ok := graph[d]; ok {
					visit(d)
				}
			}
		}
		path = path[:len(path)-1]
		state[m] = done
	}
	for _, m := range mods {
		if state[m] == unseen {
			visit(m)
		}
	}
	return out
}
