package browser

import (
	"strings"
	"testing"
)

// TestFillEditorThatRefusesErrs: an editor (a ProseMirror-style
// contenteditable) whose model ignores what is typed or pasted. The fill
// says the editor did not take the text and what to try, instead of
// setting the element's text behind the editor's back and calling that
// verified; the editor's own text is untouched.
func TestFillEditorThatRefusesErrs(t *testing.T) {
	p := loadHTML(t, `<div class="ProseMirror" contenteditable="true" aria-label="Notes"><p>kept</p></div>
<script>
const ed = document.querySelector('.ProseMirror');
window.pastes = 0;
ed.addEventListener('beforeinput', (e) => e.preventDefault());
ed.addEventListener('paste', (e) => { e.preventDefault(); window.pastes++; });
</script>`)
	_, err := p.Fill(testCtx(t), Target{Selector: ".ProseMirror"}, "new notes", FillOptions{Clear: true})
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "ProseMirror editor did not take the text") || !strings.Contains(err.Error(), `shows "kept"`) {
		t.Fatalf("fill on a refusing editor: %v", err)
	}
	if e, _ := err.(*Error); e == nil || !strings.Contains(e.Hint, "press ControlOrMeta+a, then type") {
		t.Errorf("hint does not say what to try: %+v", err)
	}
	if got := js(t, p, "[document.querySelector('.ProseMirror').textContent, window.pastes]"); got != `["kept",1]` {
		t.Fatalf("[editor text, pastes] = %s", got)
	}
}
