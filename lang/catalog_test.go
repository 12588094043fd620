package lang

import (
	"slices"
	"strings"
	"testing"
)

// TestCatalogParamsDoNotClash walks the whole catalog: no action declares a
// name twice (so a target key cannot also be a parameter with another
// meaning), and only target keys are marked Target.
func TestCatalogParamsDoNotClash(t *testing.T) {
	for _, a := range Actions() {
		if err := checkParams(a); err != nil {
			t.Errorf("%s: %v", a.Name, err)
		}
		for _, p := range a.Params {
			if p.Target && !slices.Contains(TargetKeys, p.Name) {
				t.Errorf("%s.%s marked Target", a.Name, p.Name)
			}
		}
	}
	// type's text is the characters to type, not an element to find.
	typ, _ := LookupAction("type")
	if typ.IsTarget("text") || !typ.IsTarget("selector") || !typ.IsTarget("label") {
		t.Errorf("type targets: text %v selector %v label %v", typ.IsTarget("text"), typ.IsTarget("selector"), typ.IsTarget("label"))
	}
	if click, _ := LookupAction("click"); !click.IsTarget("text") {
		t.Error("click's text is not a target")
	}
}

func TestCheckParamsRefusesClashes(t *testing.T) {
	tests := []struct {
		name   string
		params []Param
		want   string
	}{
		{"target key reused", []Param{{Name: "selector", Type: "string", Target: true}, {Name: "text", Type: "string", Target: true}, {Name: "text", Type: "string", Doc: "what to type"}}, `declares "text" twice`},
		{"common param redeclared", []Param{{Name: "timeout", Type: "int"}}, `declares "timeout" twice`},
		{"keyword spelling collides", []Param{{Name: "fooBar", Type: "int"}, {Name: "foo_bar", Type: "int"}}, `declares "foo_bar" twice`},
		{"non-key marked target", []Param{{Name: "key", Type: "string", Target: true}}, "not a target key"},
		{"clean", []Param{{Name: "selector", Type: "string", Target: true}, {Name: "text", Type: "string"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkParams(&Action{Name: "probe", Params: tt.params})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestEveryStepHasAWorkingExample: the reference's example of each step
// is a valid command that uses that step.
func TestEveryStepHasAWorkingExample(t *testing.T) {
	for _, a := range Actions() {
		if a.Example == "" {
			t.Errorf("%s has no Example", a.Name)
			continue
		}
		req, err := ParseRequest([]byte(`{"tab": "t1", "steps": [` + a.Example + `]}`))
		if err != nil {
			t.Errorf("%s's example %s: %v", a.Name, a.Example, err)
			continue
		}
		if req.Steps[0].Action != a {
			t.Errorf("%s's example runs %s", a.Name, req.Steps[0].Action.Name)
		}
	}
}

// TestEveryVisualActionHasAVerb: the changes summary starts with the verb
// of the command's first visual action; the catalog declares it.
func TestEveryVisualActionHasAVerb(t *testing.T) {
	for _, a := range Actions() {
		if a.Visual && a.Verb == "" && !a.OpensTab && a.Name != "recipe" {
			t.Errorf("%s is visual but has no Verb", a.Name)
		}
	}
}

// TestEveryParameterIsDocumented: the reference, help and the MCP schema
// describe each parameter (and each key of a nested one) from its doc.
func TestEveryParameterIsDocumented(t *testing.T) {
	var check func(action, prefix string, ps []Param)
	check = func(action, prefix string, ps []Param) {
		for _, p := range ps {
			if strings.TrimSpace(p.Doc) == "" {
				t.Errorf("%s: parameter %s%s has no doc", action, prefix, p.Name)
			}
			check(action, prefix+p.Name+".", p.Fields)
		}
	}
	for _, a := range Actions() {
		if strings.TrimSpace(a.Doc) == "" {
			t.Errorf("%s has no doc", a.Name)
		}
		check(a.Name, "", a.Params)
	}
}

// TestTargetKeysAreTargetsFields: the one list of target keys is read from
// lang.Target's tags, in the spec's order (§6).
func TestTargetKeysAreTargetsFields(t *testing.T) {
	want := []string{"selector", "ref", "text", "label", "exact", "selectors", "withinSelector", "x", "y"}
	if !slices.Equal(TargetKeys, want) {
		t.Errorf("TargetKeys = %v, want %v", TargetKeys, want)
	}
}
