package browser

import (
	"strings"
	"testing"
)

// TestSrOnlySelectBesideButtonStays: a visually hidden <select> next to
// a plain button (no popup) is not a library's replaced <select>: it stays
// in the snapshot and selectOption sets it, once.
func TestSrOnlySelectBesideButtonStays(t *testing.T) {
	p := loadHTML(t, `<style>.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }</style>
<label for="size">Size</label><select id="size" class="sr"><option>Small</option><option>Large</option></select>
<button type="button">Go</button>
<script>window.changes = 0; document.getElementById('size').addEventListener('change', () => window.changes++);</script>`)
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.YAML, `combobox "Size"`) {
		t.Fatalf("the sr-only <select> is missing from the snapshot:\n%s", s.YAML)
	}
	selectOpt(t, p, Target{Label: "Size"}, OptionLabel("Large"))
	if got := js(t, p, "[document.getElementById('size').value, window.changes]"); got != `["Large",1]` {
		t.Fatalf("[value, changes] = %s", got)
	}
}
