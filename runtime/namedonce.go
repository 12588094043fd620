package runtime

import (
	"encoding/json"
	"path/filepath"
	"reflect"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// namedFiles is what a tab's answers name that stays the same from one
// command to the next: the screenshot and full-snapshot files (rewritten
// after each command) and the viewport's size.
type namedFiles struct {
	Target       string `json:"target"`
	Screenshot   string `json:"screenshot,omitempty"`
	FullSnapshot string `json:"fullSnapshot,omitempty"`
	Viewport     any    `json:"viewport,omitempty"`
}

// nameOnce leaves out of the answer the screenshot and full-snapshot paths
// and the viewport's size when the tab's previous answer named the same
// ones: the files are rewritten after every command under the same names,
// so an agent that read them once knows where to look, and each repeat
// cost about 200 bytes an answer. The tab's first answer, and any answer
// in which one of them differs (a new tab, a resized viewport), names
// them, and so does a command that sets its capture itself (it asked for
// them). The memory is kept in the state directory under the tab's alias,
// over the one the alias's last command wrote (as its screenshot is), and
// holds the tab's target: a new tab under a reused alias starts afresh.
func (h *host) nameOnce(out *Output) {
	target := h.env.Tab().TargetID
	if target == "" || out.Context == nil {
		return
	}
	now := namedFiles{Target: target, Screenshot: out.Screenshot, FullSnapshot: out.FullSnapshot, Viewport: normalJSON(out.Context.Viewport)}
	name := filepath.Join("answers", safeName(h.tabName())+".named.json")
	root, err := state.OpenRoot()
	if err != nil {
		return
	}
	defer root.Close()
	var last namedFiles
	raw, _ := root.ReadFile(name)
	if json.Unmarshal(raw, &last) != nil || last.Target != target {
		last = namedFiles{}
	}
	asked := h.captureAsked
	next := last
	next.Target = target
	if now.Screenshot != "" {
		if !asked && now.Screenshot == last.Screenshot {
			out.Screenshot = ""
		}
		next.Screenshot = now.Screenshot
	}
	if now.FullSnapshot != "" {
		if !asked && now.FullSnapshot == last.FullSnapshot {
			out.FullSnapshot = ""
		}
		next.FullSnapshot = now.FullSnapshot
	}
	if now.Viewport != nil {
		if !asked && reflect.DeepEqual(now.Viewport, last.Viewport) {
			out.Context.Viewport = nil
		}
		next.Viewport = now.Viewport
	}
	if data := mustJSON(next); data != string(raw) {
		state.OverwriteFile([]byte(data), name)
	}
}

// normalJSON returns v as encoding/json would read it back (maps of any,
// float64 numbers), so a value from the page compares equal to the same
// value read from the state file; nil stays nil.
func normalJSON(v any) any {
	if v == nil {
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}

// safeName keeps a tab's name usable as a file name.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// mustJSON is v as JSON ("" when it cannot be written).
func mustJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
