package lang

import (
	"fmt"
	"strings"
)

// Reference renders the parameter reference of every step as Markdown:
// for each step its Starlark name, the forms it takes, every parameter
// with type, default and meaning, and one example. It is generated from
// the catalog, so it cannot disagree with what the steps accept.
func Reference() string {
	var b strings.Builder
	b.WriteString("# cdp-skill step reference\n\n")
	b.WriteString("Generated from the step catalog (`cdp-skill help STEP` prints one step). Every step is\n")
	b.WriteString("`{\"<step>\": <value>}` in a command's `steps`; the value is `true`, the positional form, or an\n")
	b.WriteString("object of the parameters below. In recipes the step is a function with snake_case keywords\n")
	b.WriteString("(`scrollUntilVisible` → `scroll_until_visible`). A key a step does not declare, or a value of the\n")
	b.WriteString("wrong type, is a VALIDATION error naming the valid ones.\n\n")
	b.WriteString("Every action also takes:\n\n")
	writeParamTable(&b, CommonParams)
	for _, a := range Actions() {
		b.WriteString("\n")
		b.WriteString(StepReference(a))
	}
	b.WriteString("\n## Recipe functions\n\nBesides the steps, recipes have these functions (not JSON steps):\n\n")
	for _, f := range Functions() {
		b.WriteString("- " + FunctionReference(f))
	}
	return b.String()
}

// FunctionReference renders one recipe function as a line: its call and
// what it does.
func FunctionReference(f *Function) string {
	return fmt.Sprintf("`%s(%s)`: %s\n", f.Name, strings.Join(f.Params, ", "), f.Doc)
}

// StepReference renders one step's section of the reference.
func StepReference(a *Action) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n%s.\n\n", a.Name, strings.TrimSuffix(a.Doc, "."))
	forms := []string{"recipes: `" + a.Builtin() + "(…)`"}
	if len(a.Aliases) > 0 {
		forms = append(forms, "also spelled "+codeList(a.Aliases))
	}
	if a.Positional != "" {
		forms = append(forms, "positional value: "+describeType(a.Positional))
	}
	if a.MapForm {
		forms = append(forms, "an object of other keys is passed whole")
	}
	b.WriteString(strings.Join(forms, " · ") + "\n\n")
	if len(a.Params) > 0 {
		writeParamTable(&b, a.Params)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Example: `%s`\n", a.ExampleStep())
	var common []string
	for _, p := range CommonParams {
		common = append(common, p.Name)
	}
	fmt.Fprintf(&b, "\nAlso: %s (see `cdp-skill help steps`).\n", codeList(common))
	return b.String()
}

// ExampleStep is the action's example JSON step (made from its positional
// type when the catalog gives none).
func (a *Action) ExampleStep() string {
	if a.Example != "" {
		return a.Example
	}
	return fmt.Sprintf(`{"%s": true}`, a.Name)
}

func writeParamTable(b *strings.Builder, params []Param) {
	b.WriteString("| parameter | type | default | meaning |\n|---|---|---|---|\n")
	for _, p := range params {
		writeParamRow(b, "", p)
	}
}

func writeParamRow(b *strings.Builder, prefix string, p Param) {
	doc := p.Doc
	if p.Target {
		doc += " (target)"
	}
	def := ""
	if p.Default != "" {
		def = "`" + p.Default + "`"
	}
	fmt.Fprintf(b, "| `%s%s` | %s | %s | %s |\n", prefix, p.Name, describeType(p.Type), def, escapeCell(doc))
	for _, f := range p.Fields {
		writeParamRow(b, prefix+p.Name+".", f)
	}
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return strings.Join(out, ", ")
}

// Help is `cdp-skill help NAME`: the reference of a step (by JSON name,
// alias or Starlark name) or of a recipe function; a miss suggests the
// nearest name.
func Help(name string) (string, error) {
	if a, ok := LookupAction(name); ok {
		return StepReference(a), nil
	}
	if a, ok := ActionForBuiltin(name); ok {
		return StepReference(a), nil
	}
	if f, ok := LookupFunction(name); ok {
		return "recipe function " + FunctionReference(f), nil
	}
	known := ActionNames()
	for _, f := range Functions() {
		known = append(known, f.Name)
	}
	msg := fmt.Sprintf("no step or recipe function %q", name)
	if c := closest(name, known); c != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", c)
	}
	return "", fmt.Errorf("%s; steps: %s", msg, strings.Join(ActionNames(), ", "))
}
