package corpus

import "testing"

// TestAceClickAndType: Ace draws its text over a hidden textarea; the
// agent clicks the textbox ref, goes to the end and types, and Ace's
// document holds the typed text once.
func TestAceClickAndType(t *testing.T) {
	t.Parallel()
	a := openPage(t, "ace.html", "[data-ready=ace]")
	a.do(`{"pageFunction":"() => editor.setValue('SELECT id FROM users', 1)"}`)
	ref := refIn(t, a.snapshot(), `textbox "Cursor at row`)
	a.do(`{"click":`+q(ref)+`}`, `{"press":"Control+End"}`, `{"type":" LIMIT 5;"}`)
	if got := a.eval(`() => editor.getValue()`); got != "SELECT id FROM users LIMIT 5;" {
		t.Fatalf("editor.getValue() = %q", got)
	}
}

// TestAceSelectAllReplace: Ctrl+A then typing replaces Ace's document.
func TestAceSelectAllReplace(t *testing.T) {
	t.Parallel()
	a := openPage(t, "ace.html", "[data-ready=ace]")
	ref := refIn(t, a.snapshot(), `textbox "Cursor at row`)
	a.do(`{"click":`+q(ref)+`}`, `{"press":"Control+a"}`, `{"type":"SELECT 1;"}`)
	if got := a.eval(`() => editor.getValue()`); got != "SELECT 1;" {
		t.Fatalf("editor.getValue() = %q", got)
	}
}

// TestCodeMirrorClickAndType: CodeMirror 6's contenteditable content
// takes a click by ref and typed keys; its state's document holds them.
func TestCodeMirrorClickAndType(t *testing.T) {
	t.Parallel()
	a := openPage(t, "codemirror.html", "[data-ready=codemirror]")
	ref := refIn(t, a.snapshot(), `textbox "Snippet code"`)
	a.do(`{"click":`+q(ref)+`}`, `{"press":"Control+End"}`, `{"type":"total += 1;"}`)
	if got := a.eval(`() => view.state.doc.toString()`); got != "let total = 0;\ntotal += 1;" {
		t.Fatalf("view.state.doc = %q", got)
	}
}

// TestCodeMirrorFill: fill by ref replaces CodeMirror's whole document.
func TestCodeMirrorFill(t *testing.T) {
	t.Parallel()
	a := openPage(t, "codemirror.html", "[data-ready=codemirror]")
	ref := refIn(t, a.snapshot(), `textbox "Snippet code"`)
	a.do(`{"fill":{"ref":` + q(ref) + `,"value":"const ready = true;"}}`)
	if got := a.eval(`() => view.state.doc.toString()`); got != "const ready = true;" {
		t.Fatalf("view.state.doc = %q", got)
	}
}

// TestQuillTypeAndBold types into Quill, turns bold on with its toolbar
// button by ref and types more: Quill's delta has the second run bold.
func TestQuillTypeAndBold(t *testing.T) {
	t.Parallel()
	a := openPage(t, "quill.html", "[data-ready=quill]")
	yaml := a.snapshot()
	body, bold := refIn(t, yaml, `textbox "Post body"`), refIn(t, yaml, `button "bold"`)
	a.do(`{"click":`+q(body)+`}`, `{"type":"Hello team"}`, `{"click":`+q(bold)+`}`, `{"type":" today"}`)
	want := `[{"insert":"Hello team"},{"attributes":{"bold":true},"insert":" today"},{"insert":"\n"}]`
	if got := a.evalJSON(`() => quill.getContents().ops`); got != want {
		t.Fatalf("quill.getContents().ops = %s, want %s", got, want)
	}
}

// TestQuillSelectAllBold: Ctrl+A and Ctrl+B make all of Quill's text bold.
func TestQuillSelectAllBold(t *testing.T) {
	t.Parallel()
	a := openPage(t, "quill.html", "[data-ready=quill]")
	body := refIn(t, a.snapshot(), `textbox "Post body"`)
	a.do(`{"type":{"ref":`+q(body)+`,"text":"Draft notes"}}`, `{"press":"Control+a"}`, `{"press":"Control+b"}`)
	want := `[{"attributes":{"bold":true},"insert":"Draft notes"},{"insert":"\n"}]`
	if got := a.evalJSON(`() => quill.getContents().ops`); got != want {
		t.Fatalf("quill.getContents().ops = %s, want %s", got, want)
	}
}
