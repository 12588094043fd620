package mcpserver

// outputSchema is every tool's structuredContent: the answer's envelope
// (answerEnvelope: status, tab, navigated, error); the answer itself is the
// text content.
func outputSchema() map[string]any {
	return map[string]any{
		"type":       "object",
		"properties": map[string]any{"status": map[string]any{"type": "string", "enum": []string{"ok", "error"}}},
		"required":   []string{"status"},
	}
}

// tabsSchema is the tabs tool's input.
func tabsSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"action": map[string]any{"type": "string", "enum": []string{"list", "open", "close"}},
			"url":    map[string]any{"type": "string", "description": "open: the page to load (default about:blank)"},
			"tab":    map[string]any{"type": "string", "description": `close: the tab's alias ("t1") or target id`},
			"keep":   map[string]any{"type": "boolean", "description": "open: leave the tab open when this session ends"},
		},
		"required":             []string{"action"},
		"additionalProperties": false,
	}
}

// recipeSchema is run_recipe's input: exactly one of source, path, or site
// and name.
func recipeSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"source":  map[string]any{"type": "string"},
			"path":    map[string]any{"type": "string", "description": ".star file"},
			"site":    map[string]any{"type": "string", "description": "site profile's domain"},
			"name":    map[string]any{"type": "string", "description": "its recipe"},
			"args":    map[string]any{"type": "object", "additionalProperties": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}, map[string]any{"type": "boolean"}}}, "description": `read as args["k"]`},
			"tab":     map[string]any{"type": "string"},
			"timeout": map[string]any{"type": "number", "exclusiveMinimum": 0, "description": "ms (default 5 min)"},
		},
		"oneOf": []any{
			map[string]any{"required": []string{"source"}},
			map[string]any{"required": []string{"path"}},
			map[string]any{"required": []string{"site", "name"}},
		},
		"additionalProperties": false,
	}
}

// compileSchema is compile's input: a command whose steps are any tool's.
func compileSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"tab":   map[string]any{"type": "string"},
			"steps": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"type": "object"}, "description": "steps as the other tools take them"},
		},
		"required":             []string{"steps"},
		"additionalProperties": false,
	}
}
