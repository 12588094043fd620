package mcpserver

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cdp-skill/cdp-skill/runtime"
)

// maxImageBytes bounds a screenshot returned as image content; a larger
// one (a long full-page capture) is only named by its path in the JSON.
const maxImageBytes = 4 << 20

// commandResult is a command's answer as a tool result: the JSON object,
// lean (leanAnswer), as text, which is what a host shows its agent; its
// envelope (status, tab, navigated, error) as structuredContent, so the
// answer is not sent twice; isError when the command failed; the
// screenshots it was asked to take as images.
func commandResult(out *runtime.Output) *mcp.CallToolResult {
	dropProfileNudge(out)
	shots := screenshots(out)
	leanAnswer(out)
	data := []byte(strings.TrimSuffix(string(out.JSON()), "\n"))
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: envelope(out),
		IsError:           !out.OK(),
	}
	for _, shot := range shots {
		if img := readImage(shot.path, shot.format); img != nil {
			res.Content = append(res.Content, img)
		}
	}
	return res
}

// answerEnvelope is a tool's structuredContent (outputSchema): what a host
// branches on; the answer itself is the text content.
type answerEnvelope struct {
	Status    string `json:"status"`
	Tab       string `json:"tab,omitempty"`
	Navigated bool   `json:"navigated,omitempty"`
	Error     string `json:"error,omitempty"`
}

func envelope(out *runtime.Output) json.RawMessage {
	e := answerEnvelope{Status: out.Status, Tab: out.Tab, Navigated: out.Navigated}
	switch {
	case out.Error != nil:
		e.Error = out.Error.Message
	case len(out.Errors) > 0:
		e.Error = out.Errors[0].Error
	}
	data, _ := json.Marshal(e)
	return data
}

// recipeResult is compile's answer: the recipe as text and structured.
func recipeResult(src string) *mcp.CallToolResult {
	data, _ := json.Marshal(map[string]string{"status": runtime.StatusOK, "recipe": src})
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: src}}, StructuredContent: json.RawMessage(data)}
}

// shot is an image file an answer names.
type shot struct{ path, format string }

// screenshots lists the images of an answer: those of screenshot steps,
// then the post-command capture's (taken only when the capture asked).
func screenshots(out *runtime.Output) []shot {
	var list []shot
	for _, st := range out.Steps {
		if st.Action != "screenshot" || st.Status != runtime.StatusOK || st.Output == nil {
			continue
		}
		data, err := json.Marshal(st.Output)
		if err != nil {
			continue
		}
		var o struct {
			Path   string `json:"path"`
			Format string `json:"format"`
		}
		if json.Unmarshal(data, &o) == nil && o.Path != "" {
			list = append(list, shot{o.Path, o.Format})
		}
	}
	if out.Screenshot != "" {
		list = append(list, shot{out.Screenshot, "png"})
	}
	return list
}

// readImage reads an image file into image content, or nil when it is
// missing, too large or not an image type hosts show.
func readImage(path, format string) *mcp.ImageContent {
	mime := map[string]string{"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "webp": "image/webp"}[strings.ToLower(format)]
	if mime == "" {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxImageBytes {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return &mcp.ImageContent{MIMEType: mime, Data: data}
}

// dropProfileNudge removes the suggestion to write a site profile: an MCP
// host's agent is told once, in the instructions, not in every answer of
// a site without one.
func dropProfileNudge(out *runtime.Output) {
	kept := out.NextActions[:0]
	for _, n := range out.NextActions {
		if _, nudge := n.Step["writeSiteProfile"]; !nudge {
			kept = append(kept, n)
		}
	}
	out.NextActions = kept
}
