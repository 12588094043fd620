package runtime

import (
	"os"
	"strings"
	"testing"
)

// TestAnswersNameTheTabsFilesOnce: the screenshot and full-snapshot files
// and the viewport's size are named in a tab's first answer; later answers
// leave them out (the files are rewritten under the same names) until one
// differs or the command asks for its capture itself. The files still
// hold each command's page.
func TestAnswersNameTheTabsFilesOnce(t *testing.T) {
	base := pagesURL(t) + "shop/"
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`product.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	tab := open.Tab
	if open.Screenshot == "" || open.FullSnapshot == "" || open.Context.Viewport == nil {
		t.Fatalf("the tab's first answer does not name its files and viewport: %s", open.JSON())
	}
	shot, full := open.Screenshot, open.FullSnapshot
	markScreenshot(t, shot)
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Add to cart"}}]}`)
	mustOK(t, out)
	if out.Screenshot != "" || out.FullSnapshot != "" || out.Context.Viewport != nil {
		t.Errorf("a later answer names the files and viewport again: %s", out.JSON())
	}
	if data, err := os.ReadFile(full); err != nil || !strings.Contains(string(data), "Added 1 × Brass Clip Lamp") {
		t.Errorf("the full snapshot file does not hold the page after the click (%v):\n%s", err, data)
	}
	if screenshotMarked(t, shot) {
		t.Errorf("the screenshot file still holds the page before the click")
	}
	if got := pageJSON(t, tab, "window.adds"); got != "1" {
		t.Errorf("the add handler ran %s times", got)
	}
	// Another viewport size is named; and the size after it again.
	small := runJSON(t, `{"tab":"`+tab+`","steps":[{"viewport":{"width":800,"height":600}},{"click":{"text":"Add to cart"}}]}`)
	mustOK(t, small)
	if !strings.Contains(jsonString(small.Context.Viewport), `"width":800`) || small.Screenshot != "" {
		t.Errorf("a resized viewport: %s", small.JSON())
	}
	back := runJSON(t, `{"tab":"`+tab+`","steps":[{"scroll":"top"}]}`)
	mustOK(t, back)
	if !strings.Contains(jsonString(back.Context.Viewport), `"width":1280`) {
		t.Errorf("the viewport back to its size is not named: %s", jsonString(back.Context))
	}
	// A command that asks for its capture gets the files named.
	asked := runJSON(t, `{"tab":"`+tab+`","capture":"full","steps":[{"scroll":"top"}]}`)
	mustOK(t, asked)
	if asked.Screenshot != shot || asked.FullSnapshot != full {
		t.Errorf("capture full does not name the files: %s", asked.JSON())
	}
	// Another tab names its own.
	other := runJSON(t, `{"steps":[{"openTab":"`+base+`product.html"}]}`)
	mustOK(t, other)
	closeTabAfter(t, other)
	if other.Screenshot == "" || other.Screenshot == shot || other.Context.Viewport == nil {
		t.Errorf("a new tab's first answer: %s", other.JSON())
	}
}
