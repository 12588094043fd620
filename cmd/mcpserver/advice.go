package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// toolSyntax writes a step a hint suggests as the call an MCP client
// makes: the tool that takes it and its arguments, on tab when known
// (`the interact tool with {"tab":"t1","steps":[{"reload":true}]}`).
func toolSyntax(tab string) suggest.Syntax {
	return func(s suggest.Step) string {
		tool := toolOf(s.Name)
		args := suggest.Args{}
		switch {
		case tool == "tabs" && s.Name == "closeTab":
			args = append(args, suggest.Arg{Key: "action", Value: "close"})
			closing := tab
			if t, ok := s.Value.(string); ok {
				closing = t
			}
			if closing != "" {
				args = append(args, suggest.Arg{Key: "tab", Value: closing})
			}
		default:
			if tab != "" {
				args = append(args, suggest.Arg{Key: "tab", Value: tab})
			}
			args = append(args, suggest.Arg{Key: "steps", Value: []json.RawMessage{json.RawMessage(s.JSON())}})
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(args); err != nil {
			return s.JSON()
		}
		return fmt.Sprintf("the %s tool with %s", tool, bytes.TrimSpace(b.Bytes()))
	}
}
