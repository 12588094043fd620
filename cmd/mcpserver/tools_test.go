package mcpserver

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cdp-skill/cdp-skill/cmd"
	"github.com/cdp-skill/cdp-skill/lang"
)

func testTools(t *testing.T) []toolDef {
	t.Helper()
	s := &server{host: &cmd.MCPHost{Version: "test"}}
	return s.tools()
}

// TestToolListIsSmall: the tools/list result, as the SDK sends it, stays
// under 25 KB (it is in every session's context).
func TestToolListIsSmall(t *testing.T) {
	var list []*mcp.Tool
	for _, d := range testTools(t) {
		list = append(list, d.tool)
	}
	data, err := json.Marshal(&mcp.ListToolsResult{Tools: list})
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 25000 {
		t.Errorf("tools/list is %d bytes, want <= 25000", len(data))
	}
	t.Logf("tools/list: %d bytes", len(data))
}

// TestToolsAreShapedByPermission: each tool says what it may do, and every
// action of the catalog is reachable through a tool.
func TestToolsAreShapedByPermission(t *testing.T) {
	readOnly := map[string]bool{"observe": true, "compile": true}
	for _, d := range testTools(t) {
		a := d.tool.Annotations
		if a == nil || a.Title == "" || a.DestructiveHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: annotations incomplete: %+v", d.tool.Name, a)
			continue
		}
		if a.ReadOnlyHint != readOnly[d.tool.Name] || *a.DestructiveHint == readOnly[d.tool.Name] {
			t.Errorf("%s: readOnly %v destructive %v", d.tool.Name, a.ReadOnlyHint, *a.DestructiveHint)
		}
		if d.tool.OutputSchema == nil {
			t.Errorf("%s: no outputSchema", d.tool.Name)
		}
	}
	for _, a := range lang.Actions() {
		if a.Name == "recipe" || slices.Contains([]string{"openTab", "closeTab", "listTabs", "connectTab"}, a.Name) {
			continue // run_recipe and tabs
		}
		found := false
		for _, st := range stepTools {
			found = found || slices.Contains(st.actions, a.Name)
		}
		if !found {
			t.Errorf("action %s is in no tool", a.Name)
		}
	}
	for _, st := range stepTools {
		if st.name == "evaluate" {
			continue
		}
		for _, own := range evaluateOwn {
			if slices.Contains(st.actions, own) {
				t.Errorf("%s takes %s, which evaluates JavaScript", st.name, own)
			}
		}
	}
}

// TestSchemasAreStrictDialect: no type arrays (single-type dialects refuse
// them) and the closed value sets are enums.
func TestSchemasAreStrictDialect(t *testing.T) {
	enums := map[string]bool{}
	for _, d := range testTools(t) {
		data, _ := json.Marshal(d.tool.InputSchema)
		var v any
		json.Unmarshal(data, &v)
		walk(v, func(m map[string]any) {
			if _, isList := m["type"].([]any); isList {
				t.Errorf("%s: a type array: %v", d.tool.Name, m)
			}
			if e, ok := m["enum"].([]any); ok {
				for _, x := range e {
					enums[d.tool.Name+":"+x.(string)] = true
				}
			}
		})
	}
	for _, want := range []string{"interact:middle", "interact:networkidle", "observe:interactive", "observe:plain", "observe:warning", "interact:html5", "interact:dismiss", "observe:jpeg", "observe:table", "tabs:close"} {
		if !enums[want] {
			t.Errorf("no enum holds %s", want)
		}
	}
}

func walk(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(x)
		for _, c := range x {
			walk(c, f)
		}
	case []any:
		for _, c := range x {
			walk(c, f)
		}
	}
}

var jsonObject = regexp.MustCompile(`\{"[^{}]*(\{[^{}]*(\{[^{}]*\}[^{}]*)*\}[^{}]*)*\}`)

// TestDescriptionExamplesPass: every JSON example in a tool's description
// passes its input schema and the tool's own checks: a whole argument
// object as it is, a step inside a command.
func TestDescriptionExamplesPass(t *testing.T) {
	checked := 0
	for _, d := range testTools(t) {
		r := resolve(t, d.tool.InputSchema)
		for _, ex := range jsonObject.FindAllString(d.tool.Description, -1) {
			var v map[string]any
			if err := json.Unmarshal([]byte(strings.ReplaceAll(ex, "…", "x")), &v); err != nil {
				t.Errorf("%s: example %s is not JSON: %v", d.tool.Name, ex, err)
				continue
			}
			whole := false
			for _, k := range []string{"steps", "action", "source", "path", "site"} {
				_, has := v[k]
				whole = whole || has
			}
			if !whole {
				v = map[string]any{"tab": "t1", "steps": []any{v}}
			}
			checked++
			if err := r.Validate(v); err != nil {
				t.Errorf("%s: example %s fails the schema: %v", d.tool.Name, ex, err)
			}
			if _, isSteps := v["steps"]; !isSteps || d.tool.Name == "compile" {
				continue
			}
			req, err := lang.ParseRequest(mustJSON(v))
			if err != nil {
				t.Errorf("%s: example %s is refused: %v", d.tool.Name, ex, err)
				continue
			}
			for _, st := range stepTools {
				if st.name == d.tool.Name {
					if msg := st.refuse(req); msg != "" {
						t.Errorf("%s: example %s is refused: %s", d.tool.Name, ex, msg)
					}
				}
			}
		}
	}
	if checked < 12 {
		t.Errorf("only %d examples checked", checked)
	}
}

// TestSchemasRejectMistakes: what the schemas catch before a call.
func TestSchemasRejectMistakes(t *testing.T) {
	schemas := map[string]*jsonschema.Resolved{}
	for _, d := range testTools(t) {
		schemas[d.tool.Name] = resolve(t, d.tool.InputSchema)
	}
	for _, c := range []struct{ tool, args string }{
		{"interact", `{"tab":"t1","steps":[{"click":"#a","fill":"#b"}]}`},
		{"interact", `{"tab":"t1","steps":[{"click":{"button":"centre"}}]}`},
		{"interact", `{"tab":"t1","steps":[{"click":{"selector":"#a","readyWhen":"true"}}]}`},
		{"interact", `{"tab":"t1","steps":[{"pageFunction":"1"}]}`},
		{"observe", `{"tab":"t1","steps":[{"snapshot":{"detail":"everything"}}]}`},
		{"observe", `{"tab":"t1","steps":[{"click":"#a"}]}`},
		{"evaluate", `{"tab":"t1","steps":[{"pageFunction":"1","poll":"true"}]}`},
		{"tabs", `{"action":"reopen"}`},
		{"run_recipe", `{"source":"x","path":"y.star"}`},
		{"run_recipe", `{}`},
	} {
		var v any
		json.Unmarshal([]byte(c.args), &v)
		if schemas[c.tool].Validate(v) == nil {
			t.Errorf("%s accepts %s", c.tool, c.args)
		}
	}
	for _, c := range []struct{ tool, args string }{
		{"interact", `{"tab":"t1","steps":[{"click":{"selector":"#a","button":"right"},"optional":true,"timeout":500}]}`},
		{"evaluate", `{"tab":"t1","steps":[{"click":{"selector":"#a","readyWhen":"true"}}]}`},
		{"observe", `{"tab":"t1","capture":{"screenshot":true},"steps":[{"snapshot":{"detail":"interactive"}}]}`},
		{"run_recipe", `{"site":"example.com","name":"login","args":{"n":2}}`},
	} {
		var v any
		json.Unmarshal([]byte(c.args), &v)
		if err := schemas[c.tool].Validate(v); err != nil {
			t.Errorf("%s refuses %s: %v", c.tool, c.args, err)
		}
	}
}

func resolve(t *testing.T, schema any) *jsonschema.Resolved {
	t.Helper()
	data, _ := json.Marshal(schema)
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve: %v\n%s", err, data)
	}
	return r
}
