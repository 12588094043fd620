package lang

import "strings"

// CommandSchema returns the JSON Schema (draft 2020-12) of a JSON command
// ({tab, timeout, capture, steps}), generated from the catalog, so that a
// client (an MCP host) can validate a command before sending it. It is
// looser than ParseRequest where JSON Schema cannot say what we check (one
// action per step, the tab a step needs); ParseRequest stays the authority
// and its errors are what the agent sees.
func CommandSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"tab":         map[string]any{"type": "string", "description": `tab alias ("t1") or target id to run in; omit when the first step is openTab`},
			"timeout":     map[string]any{"type": "number", "minimum": 0, "description": "default step timeout in ms"},
			"capture":     CaptureSchema(),
			"stopOnError": map[string]any{"type": "boolean", "description": "false runs every step and lists each one's status (default true: stop at the first failure)"},
			"strict":      map[string]any{"type": "boolean", "description": "true turns off every automatic fallback of the actions (auto-force, JavaScript click, value-setter fill)"},
			"outputPath":  map[string]any{"type": "string", "description": "file (under the output dir) the last step's full output is saved to"},
			"steps": map[string]any{"type": "array", "minItems": 1, "items": StepSchema(),
				"description": stepsDoc()},
		},
		"required":             []string{"steps"},
		"additionalProperties": false,
	}
}

// CaptureSchema is the schema of the top-level "capture" field.
func CaptureSchema() map[string]any {
	settings := map[string]any{}
	for _, s := range CaptureSettings {
		settings[s] = map[string]any{"type": "boolean"}
	}
	settings["preset"] = map[string]any{"enum": CapturePresets}
	return map[string]any{
		"description": "what the answer carries after visual steps: a preset or settings",
		"anyOf": []any{
			map[string]any{"enum": CapturePresets},
			map[string]any{"type": "object", "properties": settings, "additionalProperties": false},
		},
	}
}

// StepSchema is the schema of one step: an object whose keys are actions
// (names and aliases) and the step modifiers.
func StepSchema() map[string]any {
	props := map[string]any{
		"optional":   map[string]any{"type": "boolean", "description": "a failure reports status skipped and the command goes on"},
		"timeout":    map[string]any{"type": "number", "minimum": 0, "description": "step timeout in ms"},
		"outputPath": map[string]any{"type": "string", "description": "file (under the output dir) the step's full output is saved to"},
	}
	for _, a := range Actions() {
		s := ActionSchema(a)
		props[a.Name] = s
		for _, al := range a.Aliases {
			props[al] = map[string]any{"description": "alias of " + a.Name}
		}
	}
	return map[string]any{"type": "object", "properties": props, "minProperties": 1, "maxProperties": 4, "additionalProperties": false}
}

// ActionSchema is the schema of an action's value in a step: true, the
// positional value, or an object of its parameters.
func ActionSchema(a *Action) map[string]any {
	obj := ParamsSchema(a)
	if a.MapForm {
		obj["additionalProperties"] = true
	}
	alts := []any{map[string]any{"type": "boolean", "const": true}, obj}
	if pos := positionalSchema(a.Positional); pos != nil {
		if len(pos) == 0 {
			return map[string]any{"description": a.Doc}
		}
		alts = append(alts, pos)
	}
	return map[string]any{"description": a.Doc, "anyOf": alts}
}

// ParamsSchema is the object schema of an action's parameters, the common
// lifecycle ones included.
func ParamsSchema(a *Action) map[string]any {
	props := map[string]any{}
	for _, p := range a.Params {
		props[p.Name] = paramSchema(p)
	}
	// The lifecycle parameters are described once, on the steps array.
	for _, p := range CommonParams {
		props[p.Name] = TypeSchema(p.Type)
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

// paramSchema is the schema of one declared parameter: its type, its doc
// and default, and the keys of a dict declared as a struct.
func paramSchema(p Param) map[string]any {
	s := TypeSchema(p.Type)
	doc := p.Doc
	if p.Default != "" {
		doc += " (default " + p.Default + ")"
	}
	if doc != "" {
		s["description"] = strings.TrimSpace(doc)
	}
	if len(p.Fields) > 0 {
		props := map[string]any{}
		for _, f := range p.Fields {
			props[f.Name] = paramSchema(f)
		}
		s["properties"], s["additionalProperties"] = props, false
	}
	return s
}

// positionalSchema is the schema of a positional value besides true and an
// object (both handled by the caller): nil when there is none, empty when
// anything goes.
func positionalSchema(t Type) map[string]any {
	var kept []string
	for _, k := range strings.Split(string(t), "|") {
		switch k {
		case "", "bool", "dict":
		case "any":
			return map[string]any{}
		default:
			kept = append(kept, k)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return TypeSchema(Type(strings.Join(kept, "|")))
}

// TypeSchema is the JSON Schema of a parameter type.
func TypeSchema(t Type) map[string]any {
	var types []string
	for _, k := range strings.Split(string(t), "|") {
		var js string
		switch k {
		case "any":
			return map[string]any{}
		case "string", "hook":
			js = "string"
		case "int":
			js = "integer"
		case "number":
			js = "number"
		case "bool":
			js = "boolean"
		case "list":
			js = "array"
		case "dict":
			js = "object"
		default:
			continue
		}
		if !contains(types, js) {
			types = append(types, js)
		}
	}
	switch len(types) {
	case 0:
		return map[string]any{}
	case 1:
		return map[string]any{"type": types[0]}
	}
	// One type a schema: dialects that take a single type refuse arrays.
	alts := make([]any, len(types))
	for i, t := range types {
		alts[i] = map[string]any{"type": t}
	}
	return map[string]any{"anyOf": alts}
}

// stepsDoc describes the steps array, with the lifecycle parameters every
// action object accepts.
func stepsDoc() string {
	var b strings.Builder
	b.WriteString(`steps run in order; each is an object with one action key, e.g. {"click": "s1e4"}. Every action object also accepts:`)
	for _, p := range CommonParams {
		b.WriteString(" " + p.Name + " (" + p.Doc + ");")
	}
	return strings.TrimSuffix(b.String(), ";")
}
