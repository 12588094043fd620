package browser

import "testing"

// TestFillInAClosedShadowRoot types into a field inside a closed shadow
// root as a user would (the focused element is found through the closed
// root), so the page sees real input events.
func TestFillInAClosedShadowRoot(t *testing.T) {
	p := loadHTML(t, `<main><x-form></x-form></main>
<script>
customElements.define('x-form', class extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: 'closed'});
    root.innerHTML = '<input aria-label="Full name">';
    root.querySelector('input').addEventListener('input', (e) => { window.inputTypes = (window.inputTypes || []).concat(e.inputType); });
    window.readName = () => root.querySelector('input').value;
  }
});
</script>`)
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Fill(ctx, Target{Ref: refOf(t, s.YAML, `textbox "Full name"`)}, "Ada", FillOptions{Clear: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "insertText" || js(t, p, "window.readName()") != `"Ada"` || js(t, p, "window.inputTypes[0]") != `"insertText"` {
		t.Fatalf("fill: method %s, value %s, input events %s (%v)", res.Method, js(t, p, "window.readName()"), js(t, p, "window.inputTypes"), res.Warnings)
	}
}
