package cmd

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/cdp-skill/cdp-skill/runtime"
)

// maxImageBytes bounds a screenshot returned as image content; a larger
// one (a long full-page capture) is only named by its path in the JSON.
const maxImageBytes = 4 << 20

// commandResult is a command's answer as a tool result: the same JSON the
// command line prints, as text, with isError when the command failed, and
// the screenshots it took as images.
func commandResult(out *runtime.Output) *toolResult {
	res := &toolResult{
		Content: []any{newText(strings.TrimSuffix(string(out.JSON()), "\n"))},
		IsError: !out.OK(),
	}
	for _, shot := range screenshots(out) {
		if img := readImage(shot.path, shot.format); img != nil {
			res.Content = append(res.Content, *img)
		}
	}
	return res
}

// errorResult is a failure before anything ran, in the output's shape.
func errorResult(typ, msg string) *toolResult {
	return commandResult(runtime.ErrorOutput(typ, msg))
}

// shot is an image file an answer names.
type shot struct{ path, format string }

// screenshots lists the images of an answer: those of screenshot steps,
// then the post-command capture's.
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
func readImage(path, format string) *imageContent {
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
	return &imageContent{Type: "image", MIMEType: mime, Data: data}
}
