package browser

import (
	"strings"
	"testing"
)

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

// TestSnapshotEntersClosedRootsInClosedRoots (issue 31, item 13): an app
// whose button lives in a closed shadow root inside another closed root
// shows the button in the snapshot, and its ref clicks it once.
func TestSnapshotEntersClosedRootsInClosedRoots(t *testing.T) {
	p, _ := openFixture(t, "closednested.html")
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.YAML, `heading "Checkout"`) || !strings.Contains(s.YAML, `button "Pay now"`) {
		t.Fatalf("the snapshot misses what the closed roots hold:\n%s", s.YAML)
	}
	if _, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `button "Pay now"`)}, ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "window.paid"); got != "1" {
		t.Errorf("the page counted %s clicks", got)
	}
}

// TestSnapshotOfFramesNestedTooDeep (issue 31, item 13): frames nested 30
// deep are read down to the depth bound; the iframe line where reading
// stops says so and how to go on, and no internal marker leaks.
func TestSnapshotOfFramesNestedTooDeep(t *testing.T) {
	p, _ := openFixture(t, "deepframes.html")
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.YAML, "cdpframe") || strings.Contains(s.YAML, "\x01") {
		t.Fatalf("an internal frame marker leaked into the snapshot:\n%s", s.YAML)
	}
	// Under load a frame may still be loading when read ([loading]):
	// the note is due only when reading got down to the bound.
	if strings.Contains(s.YAML, "frame level 9") && (!strings.Contains(s.YAML, "not read: nested more than 8 frames deep") || !strings.Contains(s.YAML, `{"frame": "s`)) {
		t.Errorf("the snapshot does not say where it stopped reading:\n%s", s.YAML)
	}
}
