package lang

import (
	"slices"
	"testing"
)

// TestClosedSet: the closed value sets a parameter's doc lists become
// enums; open text does not.
func TestClosedSet(t *testing.T) {
	for _, c := range []struct {
		typ  Type
		doc  string
		want []string
	}{
		{"string", "left | right | middle", []string{"left", "right", "middle"}},
		{"string", "only this level: error | warning | info | log | debug", []string{"error", "warning", "info", "log", "debug"}},
		{"string", "auto (default: mouse, or Chrome's HTML5 drag and drop when the page starts one) | mouse | html5", []string{"auto", "mouse", "html5"}},
		{"string|dict", "how to answer a dialog the action opens: accept | dismiss | {accept, promptText}", []string{"accept", "dismiss"}},
		{"string", "png (default) | jpeg | webp; default from the path's extension", []string{"png", "jpeg", "webp"}},
		{"string|list", "only these resource types: document, script, xhr, fetch, stylesheet, image, font, media, websocket, other", []string{"document", "script", "xhr", "fetch", "stylesheet", "image", "font", "media", "websocket", "other"}},
		{"string", "key or combo: Enter, Escape, ArrowDown, Control+a, ControlOrMeta+Enter", nil},
		{"string", "paper: Letter (default), Legal, Tabloid, Ledger, A0-A6", nil},
		{"string", "visible text or accessible name", nil},
		{"int", "left | right", nil},
	} {
		if got := ClosedSet(Param{Name: "p", Type: c.typ, Doc: c.doc}); !slices.Equal(got, c.want) {
			t.Errorf("ClosedSet(%q) = %v, want %v", c.doc, got, c.want)
		}
	}
}
