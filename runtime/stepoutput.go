package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/lang"
)

// StepSpillLimit is the size (JSON bytes) past which a step's output goes
// to a file under the state dir and the answer keeps a preview and the
// path: page functions, queries, extracts and console reads can be large,
// and an agent should not read them all to go on.
const StepSpillLimit = 8 << 10

// stepPreview is how many bytes of a spilled or saved output stay inline.
const stepPreview = 600

// outputExts are the extensions an outputPath may end in.
var outputExts = []string{".json", ".txt", ".html", ".yaml", ".yml", ".md", ".csv", ".jsonl"}

// openOutputPath checks an outputPath before the step runs (confined to
// the output dir like screenshots), so a bad path fails before the action.
func openOutputPath(path, dir string) (*browser.OutputTarget, error) {
	if path == "" {
		return nil, nil
	}
	return browser.OutputFile{Path: path, Dir: dir, Kind: "output", Ext: ".json", Exts: outputExts}.Open()
}

// stepOutput is what the answer shows of a step's output: all of it when
// small, else a preview and the file that has all of it (the state dir's
// outputs/, or the file the agent named with outputPath).
func (h *host) stepOutput(a *lang.Action, out any, target *browser.OutputTarget) (any, error) {
	if out == nil {
		return nil, nil
	}
	if target == nil && a.SizesOwnOutput {
		return out, nil
	}
	data, err := outputBytes(out)
	if err != nil {
		return out, nil
	}
	if target != nil {
		if err := target.Write(data); err != nil {
			return nil, err
		}
		return preview(data, target.Path), nil
	}
	if len(data) <= StepSpillLimit {
		return out, nil
	}
	kept, cut := capSpill(data)
	path, err := state.WriteFile(kept, "outputs", fmt.Sprintf("%s.step%d-%s%s", h.tabName(), len(h.steps), a.Name, outputExt(out)))
	if err != nil {
		return out, nil
	}
	v := preview(data, path)
	v.Cut = cut
	return v, nil
}

// outputBytes is the file form of an output: a string as itself, the HTML
// of getDom (all of it, from its own spill file when it had to cut), else
// JSON.
func outputBytes(out any) ([]byte, error) {
	switch v := out.(type) {
	case string:
		return []byte(v), nil
	case *browser.DOM:
		if v.File != "" {
			return os.ReadFile(v.File)
		}
		return []byte(v.HTML), nil
	}
	data, err := encodeJSON(out)
	return []byte(strings.TrimSuffix(string(data), "\n")), err
}

func outputExt(out any) string {
	switch out.(type) {
	case string:
		return ".txt"
	case *browser.DOM:
		return ".html"
	}
	return ".json"
}

// preview stands in the answer for an output kept in a file.
func preview(data []byte, path string) *SpilledValue {
	p := data
	if len(p) > stepPreview {
		p = p[:stepPreview]
		for len(p) > 0 && !utf8.Valid(p) {
			p = p[:len(p)-1]
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return &SpilledValue{Truncated: len(p) < len(data), File: abs, Bytes: len(data), Preview: string(p)}
}
