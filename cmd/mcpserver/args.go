package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// objectArgs decodes a tool's arguments as a JSON object; the error is in
// the tool's terms.
func objectArgs(tool string, raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s: the arguments are not valid JSON: %v", tool, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s takes an object of arguments, not %s", tool, jsonKind(v))
	}
	return m, nil
}

// argString reads an optional string argument.
func argString(tool string, args map[string]any, key string) (string, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: %q must be a string, not %s", tool, key, jsonKind(v))
	}
	return s, nil
}

// argBool reads an optional boolean argument.
func argBool(tool string, args map[string]any, key string) (bool, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%s: %q must be true or false, not %s", tool, key, jsonKind(v))
	}
	return b, nil
}

// onlyKeys refuses an argument the tool does not take.
func onlyKeys(tool string, args map[string]any, keys ...string) error {
	for k := range args {
		known := false
		for _, want := range keys {
			known = known || k == want
		}
		if !known {
			return fmt.Errorf("%s takes %v; not %q", tool, keys, k)
		}
	}
	return nil
}

// jsonKind names a decoded JSON value's kind as the agent wrote it.
func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case string:
		return "a string"
	case bool:
		return fmt.Sprintf("%v", x)
	case float64:
		return "a number"
	}
	return fmt.Sprintf("%v", v)
}
