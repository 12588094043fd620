package browser

import (
	"fmt"
	"strings"
	"testing"
)

// TestClickEditorThroughItsTextLayer: a code editor draws its text over a
// hidden textarea (monaco-editor: a 1x1 textarea at the caret under the
// text layer; CodeMirror 5: a textarea clipped by a wrapper of no height).
// Clicking the editor's textbox ref clicks the text layer at once, as a
// user does: the editor's own mousedown handler runs once and focuses the
// textarea, so typed text reaches the editor's model. Before, the click
// waited out the actionability timeout as "covered", then clicked the
// textarea with element.click(), which does not focus it, and the text
// went nowhere.
func TestClickEditorThroughItsTextLayer(t *testing.T) {
	p, _ := openFixture(t, "editor.html")
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, name, was string }{{"mono", "Script", "let a = 1;"}, {"cm", "Notes", "first line"}} {
		res, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `textbox "`+c.name+`"`)}, ClickOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		if res.Method != "cdp" || res.Part == "" || res.AutoForced || len(res.Warnings) > 0 {
			t.Errorf("%s: method %s, part %q, autoForced %v, warnings %v", c.id, res.Method, res.Part, res.AutoForced, res.Warnings)
		}
		if got := js(t, p, "window.downs."+c.id); got != "1" {
			t.Errorf("%s: the editor's mousedown handler ran %s times, want 1", c.id, got)
		}
		if _, err := p.Type(ctx, Target{}, "x = 2; ", TypeOptions{}); err != nil {
			t.Fatal(err)
		}
		if got, want := js(t, p, "window.models."+c.id), fmt.Sprintf("%q", "x = 2; "+c.was); got != want {
			t.Errorf("%s: the editor's model holds %s, want %s", c.id, got, want)
		}
	}
}

// TestJSClickFallbackFocuses: a field covered by something that is not
// its own widget nor a blocking layer (a toast) is clicked with
// element.click() after the wait, and that click focuses it, as a user's
// press would: typed text goes into it. Before, element.click() left focus
// where it was.
func TestJSClickFallbackFocuses(t *testing.T) {
	p, _ := openFixture(t, "editor.html")
	ctx := testCtx(t)
	res, err := p.Click(ctx, Target{Selector: "#under"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 3e9}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "jsClick-auto" || res.Part != "" {
		t.Errorf("method %s, part %q: a toast is not the field's widget", res.Method, res.Part)
	}
	if got := js(t, p, "document.activeElement.id"); got != `"under"` {
		t.Fatalf("the JavaScript click left focus on %s", got)
	}
	if _, err := p.Type(ctx, Target{}, "SAVE10", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "document.getElementById('under').value"); got != `"SAVE10"` {
		t.Errorf("the field holds %s", got)
	}
}

// TestExplicitJSClickUnderCookieBanner: {"click": {"selector": "#under",
// "jsClick": true}} under a consent banner is the agent asking for
// element.click(): it runs once, at once, and the answer says a layer
// covered the element (interceptedBy and a warning). Before, it failed
// with ElementInterceptedError after the wait. A mouse click still never
// goes through the banner.
func TestExplicitJSClickUnderCookieBanner(t *testing.T) {
	p := loadHTML(t, `<main><h1>Shop</h1>
<button id="under" onclick="window.unders = (window.unders || 0) + 1">Under the banner</button></main>
<div id="banner" class="cookie-consent" style="position: fixed; inset: 0 0 auto 0; height: 200px; background: #333; color: #fff">We use cookies. <button onclick="this.parentElement.remove()">Accept all</button></div>`)
	ctx := testCtx(t)
	res, err := p.Click(ctx, Target{Selector: "#under"}, ClickOptions{JSClick: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "window.unders"); got != "1" {
		t.Fatalf("the handler ran %s times, want 1", got)
	}
	if res.Method != "jsClick" || res.Interceptor["kind"] != "cookie-banner" {
		t.Errorf("method %s, interceptedBy %v", res.Method, res.Interceptor)
	}
	if w := fmt.Sprint(res.Warnings); !strings.Contains(w, "cookie-banner div#banner") || !strings.Contains(w, "element.click()") {
		t.Errorf("the answer does not say a layer covered the element: %v", res.Warnings)
	}
	_, err = p.Click(ctx, Target{Selector: "#under"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 1500e6}})
	wantKind(t, err, KindElementIntercepted)
	if got := js(t, p, "window.unders"); got != "1" {
		t.Fatalf("a mouse click went through the banner: the handler ran %s times", got)
	}
}

// TestClickEditorInAFrame: the same editor inside an iframe, clicked by
// its ref from the top document: the click lands on the frame's text
// layer, the editor's handler runs once and typed text reaches its model.
func TestClickEditorInAFrame(t *testing.T) {
	p, _ := openFixture(t, "editorframe.html")
	ctx := testCtx(t)
	s, err := p.Snapshot(ctx, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `textbox "Script"`)}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "cdp" || res.Part == "" || len(res.Warnings) > 0 {
		t.Errorf("method %s, part %q, warnings %v", res.Method, res.Part, res.Warnings)
	}
	if _, err := p.Type(ctx, Target{}, "y ", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	const models = "(window.models ? window : document.getElementById('f').contentWindow)"
	if got := js(t, p, "["+models+".downs.mono, "+models+".models.mono]"); got != `[1,"y let a = 1;"]` {
		t.Errorf("[mousedowns, model] = %s", got)
	}
}

// TestEditorClickAndBlockingLayers: an editor inside a modal dialog is
// clicked through its text layer (the dialog holds both, so it is no
// layer over the editor); the same editor under a consent wall is
// refused with ElementInterceptedError, and its handler never runs.
func TestEditorClickAndBlockingLayers(t *testing.T) {
	const editor = `<div class="code-editor" style="position: relative; width: 400px; height: 100px; font: 14px monospace">
  <textarea aria-label="Query" style="position: absolute; left: 4px; top: 4px; width: 1px; height: 1px; padding: 0; border: 0"></textarea>
  <div class="text-layer" style="position: absolute; inset: 0; padding: 4px; cursor: text; background: #fff" onmousedown="event.preventDefault(); window.downs = (window.downs || 0) + 1; this.previousElementSibling.focus()">SELECT 1</div>
</div>`
	p := loadHTML(t, `<main><h1>Console</h1><dialog id="d">`+editor+`</dialog></main><script>document.getElementById('d').showModal()</script>`)
	ctx := testCtx(t)
	res, err := p.Click(ctx, Target{Selector: "textarea"}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[window.downs, document.activeElement.tagName]"); got != `[1,"TEXTAREA"]` || res.Part == "" {
		t.Errorf("in a modal dialog: [mousedowns, focused] = %s, part %q (%v)", got, res.Part, res.Warnings)
	}
	p = loadHTML(t, `<main><h1>Console</h1>`+editor+`</main><div id="consent" style="position: fixed; inset: 0; background: rgba(0,0,0,.5)">We value your privacy <button>Agree</button></div>`)
	_, err = p.Click(ctx, Target{Selector: "textarea"}, ClickOptions{ActionOptions: ActionOptions{Timeout: 1500e6}})
	wantKind(t, err, KindElementIntercepted)
	if got := js(t, p, "window.downs || 0"); got != "0" {
		t.Errorf("the click went through the consent wall: the editor's handler ran %s times", got)
	}
}

// TestEditorPartThatDoesNotFocus: a text layer over a textarea whose
// widget does not focus the textarea on a press (no handler) gets the
// mouse click, and the answer says the textarea did not take focus and
// was focused with element.focus(); typed text then reaches it.
func TestEditorPartThatDoesNotFocus(t *testing.T) {
	p := loadHTML(t, `<main><h1>Notes</h1><div style="position: relative; width: 400px; height: 100px">
<textarea aria-label="Body" style="position: absolute; left: 4px; top: 4px; width: 1px; height: 1px; padding: 0; border: 0"></textarea>
<div style="position: absolute; inset: 0; padding: 4px; cursor: text; background: #fff" onmousedown="event.preventDefault(); window.downs = (window.downs || 0) + 1">Write here</div>
</div></main>`)
	ctx := testCtx(t)
	res, err := p.Click(ctx, Target{Selector: "textarea"}, ClickOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Part == "" || !strings.Contains(strings.Join(res.Warnings, " "), "did not take focus; focused it") {
		t.Errorf("part %q, warnings %v", res.Part, res.Warnings)
	}
	if _, err := p.Type(ctx, Target{}, "hi", TypeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[window.downs, document.querySelector('textarea').value]"); got != `[1,"hi"]` {
		t.Errorf("[mousedowns, value] = %s", got)
	}
}
