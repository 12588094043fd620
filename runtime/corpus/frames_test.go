package corpus

import (
	"net/url"
	"strings"
	"testing"
)

// openFrames opens frames.html with page same in a same-site iframe
// (#same) and page cross served from 127.0.0.2 in a cross-site iframe
// (#partner), and waits until both widgets are ready. The command ends in
// the top document.
func openFrames(t *testing.T, same, cross string) *agent {
	t.Helper()
	s := serve(t)
	page := "frames.html?same=" + url.QueryEscape(same+".html") + "&cross=" + url.QueryEscape(s.Cross+cross+".html")
	a := openPage(t, page, "iframe#partner")
	a.do(`{"frame":"#same"}`, `{"wait":`+q("[data-ready="+same+"]")+`}`, `{"frame":"top"}`,
		`{"frame":"#partner"}`, `{"wait":`+q("[data-ready="+cross+"]")+`}`, `{"frame":"top"}`)
	return a
}

// TestFrameSameSiteTomSelect picks a Tom Select option inside a same-site
// iframe with refs from the top-level snapshot and the click's answer.
func TestFrameSameSiteTomSelect(t *testing.T) {
	t.Parallel()
	a := openFrames(t, "tomselect", "kanban")
	box := refIn(t, a.snapshot(), `combobox "Country"`)
	peru := refIn(t, a.look(`{"click":`+q(box)+`}`, `{"type":"Per"}`), `option "Peru"`)
	a.do(`{"click":` + q(peru) + `}`)
	if got := a.evalIn("#same", `() => [country.getValue(), countryChanges]`); got != `["pe",1]` {
		t.Fatalf("[value, changes] in the frame = %s", got)
	}
}

// TestFrameSameSiteSliderKeyboard moves a noUiSlider inside a same-site
// iframe with the keyboard after focusing its handle by a top-level ref.
func TestFrameSameSiteSliderKeyboard(t *testing.T) {
	t.Parallel()
	a := openFrames(t, "nouislider", "kanban")
	handle := refIn(t, a.snapshot(), `slider "Maximum price"`)
	a.do(`{"focus":`+q(handle)+`}`, `{"press":"ArrowRight"}`, `{"press":"ArrowRight"}`)
	if got := a.evalIn("#same", `() => slider.get()`); got != `"22.00"` {
		t.Fatalf("slider.get() in the frame = %s", got)
	}
}

// TestFrameCrossSiteKanban drags a card of a SortableJS board inside a
// cross-site iframe (its own renderer) to the Done column: the board in
// the frame has it there, moved once, and the answer does not doubt it.
func TestFrameCrossSiteKanban(t *testing.T) {
	t.Parallel()
	a := openFrames(t, "tomselect", "kanban")
	from := a.centre("listitem", "Update docs", `{"frame":"#partner"}`)
	to := a.centre("list", "Done (0)", `{"frame":"#partner"}`)
	out := a.do(`{"frame":"#partner"}`, `{"drag":{"source":`+from+`,"target":`+to+`}}`, `{"frame":"top"}`)
	dragOK(t, out, 1)
	if got := a.evalIn("#partner", `() => [columns(), moves]`); got != `[{"doing":["c4"],"done":["c3"],"todo":["c1","c2"]},["c3:todo\u003edone"]]` {
		t.Fatalf("board in the frame = %s", got)
	}
}

// TestFrameCrossSiteMonaco types into a Monaco editor inside a cross-site
// iframe by the ref of its textbox in the top-level snapshot.
func TestFrameCrossSiteMonaco(t *testing.T) {
	t.Parallel()
	a := openFrames(t, "tomselect", "monaco")
	ref := refIn(t, a.snapshot(), monacoTextbox)
	a.do(`{"click":`+q(ref)+`}`, `{"press":"Control+a"}`, `{"type":"export default 1;"}`)
	if got := a.evalIn("#partner", `() => editor.getValue()`); got != `"export default 1;"` {
		t.Fatalf("editor.getValue() in the frame = %s", got)
	}
}

// TestFrameSpecFormAgent is an agent written against the spec (§19.12:
// every command starts in the top document), beginning each command with
// its frame step and never returning to the top itself.
func TestFrameSpecFormAgent(t *testing.T) {
	t.Parallel()
	a := openFrames(t, "tomselect", "kanban")
	out := a.do(`{"frame":"#same"}`, `{"snapshot":{}}`)
	yaml, _ := stepOutput(t, out, 1)["yaml"].(string)
	box := refIn(t, yaml, `combobox "Country"`)
	a.do(`{"frame":"#same"}`, `{"click":`+q(box)+`}`, `{"type":"Germ"}`, `{"press":"Enter"}`)
	out = a.do(`{"frame":"#same"}`, `{"pageFunction":"() => country.getValue()"}`)
	if got := jsonString(out.Steps[1].Output); got != `"de"` {
		t.Errorf("country in the same-site frame = %s", got)
	}
	out = a.do(`{"frame":"#partner"}`, `{"pageFunction":"() => columns().todo"}`)
	if got := jsonString(out.Steps[1].Output); got != `["c1","c2","c3"]` {
		t.Errorf("board in the partner frame = %s", got)
	}
	out = a.do(`{"pageFunction":"() => document.title"}`)
	if got := jsonString(out.Steps[0].Output); !strings.Contains(got, "Partner portal") {
		t.Errorf("a command without a frame step ran in %s, not the top document", got)
	}
}
