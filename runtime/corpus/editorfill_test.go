package corpus

import (
	"testing"
)

// editorFill is a fill on a code or rich-text editor's textbox: the
// editor's own model must hold exactly the value afterwards and the answer
// says verified.
type editorFill struct {
	name, page, ready, textbox string
	// setup runs before the snapshot (pageFunction), to give the editor
	// a document to replace.
	setup string
	fill  string // the fill's JSON options after ref
	model string // reads the editor's model
	want  string
}

var editorFills = []editorFill{
	{name: "Monaco", page: "monaco.html", ready: "[data-ready=monaco]", textbox: monacoTextbox,
		fill: `"value":"build();"`, model: `() => editor.getValue()`, want: "build();"},
	{name: "MonacoMultiline", page: "monaco.html", ready: "[data-ready=monaco]", textbox: monacoTextbox,
		fill: `"value":"if (ready) {\n  go();\n}\n"`, model: `() => editor.getValue()`, want: "if (ready) {\n  go();\n}\n"},
	{name: "MonacoAppend", page: "monaco.html", ready: "[data-ready=monaco]", textbox: monacoTextbox,
		setup: `() => editor.setValue('let a = 1;')`,
		fill:  `"value":" let b = 2;","clear":false`, model: `() => editor.getValue()`, want: "let a = 1; let b = 2;"},
	{name: "Ace", page: "ace.html", ready: "[data-ready=ace]", textbox: `textbox "Cursor at row`,
		setup: `() => editor.setValue('SELECT id FROM users;\nSELECT 2;', 1)`,
		fill:  `"value":"SELECT name FROM teams;"`, model: `() => editor.getValue()`, want: "SELECT name FROM teams;"},
	{name: "CodeMirror6", page: "codemirror.html", ready: "[data-ready=codemirror]", textbox: `textbox "Snippet code"`,
		fill: `"value":"const a = 1;\nconst b = 2;"`, model: `() => view.state.doc.toString()`, want: "const a = 1;\nconst b = 2;"},
	{name: "AceMultiline", page: "ace.html", ready: "[data-ready=ace]", textbox: `textbox "Cursor at row`,
		fill: `"value":"SELECT id\n  FROM users\n WHERE id = 1;"`, model: `() => editor.getValue()`, want: "SELECT id\n  FROM users\n WHERE id = 1;"},
	{name: "QuillParagraphs", page: "quill.html", ready: "[data-ready=quill]", textbox: `textbox "Post body"`,
		setup: `() => quill.setText('Old draft\n')`,
		fill:  `"value":"Title\nBody text"`, model: `() => quill.getText()`, want: "Title\nBody text\n"},
	{name: "Quill", page: "quill.html", ready: "[data-ready=quill]", textbox: `textbox "Post body"`,
		setup: `() => quill.setText('Old draft\nSecond paragraph\n')`,
		fill:  `"value":"New post"`, model: `() => quill.getText()`, want: "New post\n"},
}

// TestEditorFill fills editors' textboxes by ref, replacing (or, with
// clear: false, appending to) what they hold: the editor's model holds
// exactly the value, typed once, and the answer says verified. Monaco's
// textarea holds only a window of its document: a value setter on it left
// the old code after the new ("build();function build() {…") and the
// answer said verified.
func TestEditorFill(t *testing.T) {
	t.Parallel()
	for _, c := range editorFills {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := openPage(t, c.page, c.ready)
			if c.setup != "" {
				a.do(`{"pageFunction":` + q(c.setup) + `}`)
			}
			ref := refIn(t, a.snapshot(), c.textbox)
			out := a.do(`{"fill":{"ref":` + q(ref) + `,` + c.fill + `}}`)
			if got := a.eval(c.model); got != c.want {
				t.Fatalf("after fill, %s = %q, want %q (answer %s)", c.model, got, c.want, out.JSON())
			}
			if res := stepOutput(t, out, 0); res["verified"] != true {
				t.Errorf("fill answer not verified: %s", jsonString(res))
			}
		})
	}
}

// TestEditorFillCrossSiteFrame fills Monaco inside a cross-site iframe by
// a top-level ref: the editor's model in the frame holds the value.
func TestEditorFillCrossSiteFrame(t *testing.T) {
	t.Parallel()
	a := openFrames(t, "tomselect", "monaco")
	ref := refIn(t, a.snapshot(), monacoTextbox)
	a.do(`{"fill":{"ref":` + q(ref) + `,"value":"ship();"}}`)
	if got := a.evalIn("#partner", `() => editor.getValue()`); got != `"ship();"` {
		t.Fatalf("editor.getValue() in the frame = %s", got)
	}
}
