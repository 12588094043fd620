package corpus

import (
	"strings"
	"testing"
)

// monacoTextbox is the snapshot line of Monaco's input: a textarea under
// the editor's text layer, named "Editor content".
const monacoTextbox = `textbox "Editor content`

// TestMonacoClickAndType: the agent clicks the editor's textbox ref (the
// click lands on the text layer drawn over it, as a user's does), types
// code, and the editor's model holds it, typed once.
func TestMonacoClickAndType(t *testing.T) {
	t.Parallel()
	a := openPage(t, "monaco.html", "[data-ready=monaco]")
	ref := refIn(t, a.snapshot(), monacoTextbox)
	a.do(`{"click":`+q(ref)+`}`, `{"press":"Control+End"}`, `{"type":"const answer = 42;"}`)
	got, _ := a.eval(`() => editor.getValue()`).(string)
	if strings.Count(got, "const answer = 42;") != 1 || !strings.HasPrefix(got, "function build()") {
		t.Fatalf("editor.getValue() = %q, want the typed line once after the original code", got)
	}
	if focused := a.eval(`() => editor.hasTextFocus()`); focused != true {
		t.Errorf("the editor does not have focus after the click: %v", focused)
	}
}

// TestMonacoSelectAllReplace: select-all then typing replaces the whole
// model.
func TestMonacoSelectAllReplace(t *testing.T) {
	t.Parallel()
	a := openPage(t, "monaco.html", "[data-ready=monaco]")
	ref := refIn(t, a.snapshot(), monacoTextbox)
	a.do(`{"click":`+q(ref)+`}`, `{"press":"Control+a"}`, `{"type":"let x = 1;"}`)
	if got := a.eval(`() => editor.getValue()`); got != "let x = 1;" {
		t.Fatalf("after select-all and typing, editor.getValue() = %q", got)
	}
}

// TestMonacoFindReplace opens the find/replace widget with Ctrl+H, fills
// its Find and Replace fields by the refs of a new snapshot and presses
// Replace All: every occurrence in the model changes.
func TestMonacoFindReplace(t *testing.T) {
	t.Parallel()
	a := openPage(t, "monaco.html", "[data-ready=monaco]")
	a.do(`{"pageFunction":"() => editor.setValue('const old = 1;\\nconsole.log(old, old);\\n')"}`)
	ref := refIn(t, a.snapshot(), monacoTextbox)
	a.do(`{"click":`+q(ref)+`}`, `{"press":"Control+h"}`, `{"wait":".find-widget.visible"}`)
	yaml := a.snapshot()
	find, replace := refIn(t, yaml, `textbox "Find"`), refIn(t, yaml, `textbox "Replace"`)
	a.do(`{"fill":{"ref":`+q(find)+`,"value":"old"}}`, `{"fill":{"ref":`+q(replace)+`,"value":"fresh"}}`)
	all := refIn(t, a.snapshot(), `button "Replace All`)
	a.do(`{"click":` + q(all) + `}`)
	if got := a.eval(`() => editor.getValue()`); got != "const fresh = 1;\nconsole.log(fresh, fresh);\n" {
		t.Fatalf("after Replace All, editor.getValue() = %q", got)
	}
}
