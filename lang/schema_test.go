package lang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"golang.org/x/tools/txtar"
)

// commandSchema resolves CommandSchema as a client would.
func commandSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	data, err := json.Marshal(CommandSchema())
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("the schema does not decode as a JSON Schema: %v", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("the schema does not resolve: %v", err)
	}
	return r
}

func validates(r *jsonschema.Resolved, cmd string) error {
	var v any
	if err := json.Unmarshal([]byte(cmd), &v); err != nil {
		return err
	}
	return r.Validate(v)
}

// knownCommands are the JSON commands of the repository: examples, golden
// inputs and the skill documents' blocks.
func knownCommands(t *testing.T) map[string]string {
	t.Helper()
	cmds := map[string]string{}
	files, _ := filepath.Glob("../examples/*.json")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		cmds[f] = strings.ReplaceAll(string(data), "{{base}}", "http://127.0.0.1:8099/")
	}
	golden, _ := filepath.Glob("testdata/lower/*.txtar")
	for _, f := range golden {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == "input.json" {
				cmds[f] = string(file.Data)
			}
		}
	}
	block := regexp.MustCompile("(?s)```json\n(.*?)\n```")
	docs, _ := filepath.Glob("../cmd/skill/*.md")
	for _, f := range docs {
		data, _ := os.ReadFile(f)
		for i, m := range block.FindAllStringSubmatch(string(data), -1) {
			cmds[f+"#"+string(rune('a'+i))] = m[1]
		}
	}
	if len(cmds) < 10 {
		t.Fatalf("only %d known commands", len(cmds))
	}
	return cmds
}

// TestCommandSchemaAcceptsWhatParseAccepts: the schema a client validates
// against never rejects a command we run.
func TestCommandSchemaAcceptsWhatParseAccepts(t *testing.T) {
	r := commandSchema(t)
	checked := 0
	for name, cmd := range knownCommands(t) {
		if _, err := ParseRequest([]byte(cmd)); err != nil {
			continue // a document's deliberate mistake
		}
		checked++
		if err := validates(r, cmd); err != nil {
			t.Errorf("%s: the schema rejects a valid command: %v\n%s", name, err, cmd)
		}
	}
	if checked < 10 {
		t.Errorf("only %d valid commands checked", checked)
	}
	for _, a := range Actions() {
		for _, key := range append([]string{a.Name}, a.Aliases...) {
			cmd := `{"tab":"t1","steps":[{"` + key + `":true,"optional":true,"timeout":500}]}`
			if err := validates(r, cmd); err != nil {
				t.Errorf("%s: %v", cmd, err)
			}
		}
	}
}

// TestCommandSchemaRejectsMistakes: the mistakes a client can catch before
// calling, each also one ParseRequest rejects.
func TestCommandSchemaRejectsMistakes(t *testing.T) {
	r := commandSchema(t)
	for _, cmd := range []string{
		`{"steps":[{"clik":"#a"}]}`,
		`{"steps":[{"click":{"refx":"s1e1"}}]}`,
		`{"steps":[{"click":{"ref":5}}]}`,
		`{"steps":[{"click":false}]}`,
		`{"steps":[{"click":["#a"]}]}`,
		`{"steps":[{"snapshot":{"maxDepth":"deep"}}]}`,
		`{"steps":[]}`,
		`{"steps":[{}]}`,
		`{"tab":"t1"}`,
		`{"tab":"t1","steps":[{"click":"#a"}],"capture":"huge"}`,
		`{"tab":"t1","steps":[{"click":"#a"}],"capture":{"screenshots":false}}`,
		`{"tab":"t1","steps":[{"click":"#a"}],"config":{}}`,
		`{"tab":"t1","steps":[{"click":"#a","optional":"yes"}]}`,
	} {
		if validates(r, cmd) == nil {
			t.Errorf("the schema accepts %s", cmd)
		}
		if _, err := ParseRequest([]byte(cmd)); err == nil {
			t.Errorf("ParseRequest accepts %s, which the schema rejects", cmd)
		}
	}
}

// Every top-level field ParseRequest accepts is in the schema, so a client
// validating against it never refuses a valid command.
func TestCommandSchemaKnowsEveryTopLevelField(t *testing.T) {
	props := CommandSchema()["properties"].(map[string]any)
	for _, k := range topLevelKeys {
		if _, ok := props[k]; !ok {
			t.Errorf("top-level field %q is missing from the schema", k)
		}
	}
	if len(props) != len(topLevelKeys) {
		t.Errorf("schema fields %d, ParseRequest fields %d", len(props), len(topLevelKeys))
	}
}

// TestSchemaComesFromTheDeclarations: the MCP input schema of a step is its
// options struct: every declared parameter with its doc and default, and a
// dict parameter declared as a struct lists its keys and refuses others.
func TestSchemaComesFromTheDeclarations(t *testing.T) {
	click, _ := LookupAction("click")
	props := ParamsSchema(click)["properties"].(map[string]any)
	for _, p := range click.Params {
		if _, ok := props[p.Name]; !ok {
			t.Errorf("click's schema lacks %s", p.Name)
		}
	}
	su := props["scrollUntilVisible"].(map[string]any)
	keys, _ := su["properties"].(map[string]any)
	if keys["maxScrolls"] == nil || keys["distance"] == nil || su["additionalProperties"] != false {
		t.Errorf("scrollUntilVisible schema: %v", su)
	}
	if d, _ := props["button"].(map[string]any)["description"].(string); !strings.Contains(d, "(default left)") {
		t.Errorf("button's description does not give its default: %q", d)
	}
}
