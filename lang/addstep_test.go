package lang

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
)

// HighlightOptions are the parameters of the walk-through's step (see
// docs/ARCHITECTURE.md, "Adding a step"): a target, a closed set, a
// duration with a default and a flag.
type HighlightOptions struct {
	Target   `keys:"selector ref text exact"`
	Color    string        `step:"color" doc:"outline colour: yellow | red | green" default:"yellow" example:"\"red\""`
	Duration time.Duration `step:"duration" doc:"ms the outline stays" default:"1500"`
	Scroll   bool          `step:"scroll" doc:"scroll the element into view first"`
}

// highlight is the browser side of the walk-through's step: what a Page
// method receives is the options struct the catalog decoded.
func highlight(o *HighlightOptions) string {
	return o.Color + " " + o.Duration.String() + " on " + o.Selector + o.Ref + o.Text
}

// addTestAction adds a to the catalog the way register does, for the
// test's duration.
func addTestAction(t *testing.T, a *Action) {
	t.Helper()
	built()
	if err := addAction(a); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { delete(catalog, a.Name); delete(byBuiltin, a.Builtin()) })
}

// TestAddingAStepIsTheCatalogEntry: a step is its catalog entry (an
// options struct and an Action); from that alone it gets JSON validation
// with errors naming its keys, lowering to Starlark, decoding with its
// defaults into the struct its browser method takes, the parameter
// reference and the MCP tool schema.
func TestAddingAStepIsTheCatalogEntry(t *testing.T) {
	addTestAction(t, &Action{Name: "highlight", Positional: "string", Visual: true, Options: HighlightOptions{},
		Example: `{"highlight": {"text": "Buy", "color": "red"}}`,
		Doc:     "outline an element for a moment"})

	// JSON validation: the keys it declares, and no others.
	req, err := ParseRequest([]byte(`{"steps":[{"highlight":{"text":"Buy","color":"red"}},{"highlight":"#cart"}]}`))
	if err != nil {
		t.Fatalf("a valid highlight step: %v", err)
	}
	for bad, want := range map[string]string{
		`{"steps":[{"highlight":{"text":"Buy","colour":"red"}}]}`: "color",
		`{"steps":[{"highlight":{"label":"Email"}}]}`:             "label",
		`{"steps":[{"highlight":{"duration":"soon"}}]}`:           "duration",
	} {
		if _, err := ParseRequest([]byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %q", bad, err, want)
		}
	}

	// Lowering: the same step as a Starlark call.
	src, err := Lower(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`highlight(text = "Buy", color = "red")`, `highlight("#cart")`} {
		if !strings.Contains(src, want) {
			t.Errorf("lowered program lacks %s:\n%s", want, src)
		}
	}

	// Decoding: the struct with the tags' defaults, ready for the browser.
	a, _ := ActionForBuiltin("highlight")
	opts, err := a.DecodeOptions(map[string]starlark.Value{"text": starlark.String("Buy")})
	if err != nil {
		t.Fatal(err)
	}
	if got := highlight(opts.(*HighlightOptions)); got != "yellow 1.5s on Buy" {
		t.Errorf("decoded options reach the browser as %q", got)
	}

	// The reference (cdp-skill help, REFERENCE.md) and the MCP schema.
	ref := StepReference(a)
	for _, want := range []string{"highlight", "outline colour", "1500", "Buy"} {
		if !strings.Contains(ref, want) {
			t.Errorf("reference lacks %q:\n%s", want, ref)
		}
	}
	schema, err := json.Marshal(ToolSchema(ToolSchemaOptions{Actions: []string{"click", "highlight"}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"highlight":`, `outline an element for a moment`, `"color":{"enum":["yellow","red","green"]`, `"required":["highlight"]`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("tool schema lacks %s:\n%s", want, schema)
		}
	}
}
