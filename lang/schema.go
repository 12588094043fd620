package lang

import "strings"

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
