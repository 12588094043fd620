package browser

import (
	"encoding/json"
	"strings"
	"testing"
)

// forgingPage defines the names the engine's click registry used to keep
// in the page's world, answers the registry's query itself to mark a
// plain div, and watches addEventListener being replaced.
const forgingPage = `<!doctype html><title>Forge</title><main><h1>Forge</h1>
<div id="plain">Plain text</div>
<div id="card">Real card</div>
</main>
<script>
window.hits = 0;
document.getElementById('card').addEventListener('click', () => { window.hits++; });
const plain = document.getElementById('plain');
const set = new WeakSet([plain]);
Object.defineProperty(window, '__cdpSkillClicks', {value: set, configurable: false, writable: false});
Object.defineProperty(window, '__cdpSkillClickMark', {value: () => {}, configurable: false, writable: false});
window.addEventListener('__cdpSkillClickQuery', () => plain.dispatchEvent(new Event('__cdpSkillClickMark', {composed: true})), true);
window.nativeAdd = EventTarget.prototype.addEventListener;
</script>`

// TestPageCannotSeeOrForgeTheClickRegistry (issue 31, item 12): the
// click-listener registry keeps no names or patched functions in the
// page's world: a page that defines the registry's old names and answers
// its old query cannot make plain text look clickable, sees no engine name
// on window after a snapshot, and its addEventListener and onclick stay
// native; a real listener still gets its ref, which clicks it once.
func TestPageCannotSeeOrForgeTheClickRegistry(t *testing.T) {
	p := loadHTML(t, forgingPage)
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(s.YAML, "\n") {
		if strings.Contains(line, "Plain text") && strings.Contains(line, "clickable") {
			t.Errorf("the page forged a clickable line: %s", line)
		}
	}
	// After the snapshot the page's world holds no name of the engine:
	// only the page's own two.
	names, err := p.Eval(testCtx(t), `Object.getOwnPropertyNames(window).filter(n => /cdp/i.test(n)).sort()`)
	if err != nil {
		t.Fatal(err)
	}
	if string(names) != `["__cdpSkillClickMark","__cdpSkillClicks"]` {
		t.Errorf("the page's window has %s", names)
	}
	card := refOf(t, s.YAML, "Real card")
	click(t, p, Target{Ref: card}, ClickOptions{})
	raw, err := p.Eval(testCtx(t), `({
		hits: window.hits,
		same: EventTarget.prototype.addEventListener === window.nativeAdd,
		native: EventTarget.prototype.addEventListener.toString().includes('[native code]'),
		onclick: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick').set.toString().includes('[native code]'),
	})`)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Hits    int  `json:"hits"`
		Same    bool `json:"same"`
		Native  bool `json:"native"`
		OnClick bool `json:"onclick"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.Hits != 1 || !got.Same || !got.Native || !got.OnClick {
		t.Errorf("the page sees %+v (want one click, native addEventListener and onclick)", got)
	}
}
