package runtime

import (
	"strings"
	"testing"
)

// openShop opens a page of the shop fixture site (header with a hover
// menu, results list, product, checkout with validation).
func openShop(t *testing.T, page string) (tab, base string) {
	t.Helper()
	base = pagesURL(t) + "shop/"
	out := runJSON(t, `{"steps":[{"openTab":"`+base+page+`"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	return out.Tab, base
}

// TestSnapshotStepIsTheAnswersOnlyTree: goto then snapshot prints the
// page once (the snapshot step's yaml); the capture after it refers to
// that step instead of repeating the tree. A visual step after the
// snapshot brings the viewport snapshot back.
func TestSnapshotStepIsTheAnswersOnlyTree(t *testing.T) {
	tab, base := openShop(t, "index.html")
	for _, preset := range []string{"full", "compact"} {
		out := runJSON(t, `{"tab":"`+tab+`","capture":"`+preset+`","steps":[{"goto":"`+base+`checkout.html"},{"snapshot":true}]}`)
		mustOK(t, out)
		yaml, _ := stepOutput(t, out, 1)["yaml"].(string)
		if !strings.Contains(yaml, `button "Continue to shipping"`) {
			t.Fatalf("%s: the snapshot step has no tree: %s", preset, out.JSON())
		}
		if strings.Contains(out.ViewportSnap, "Continue to shipping") || !strings.Contains(out.ViewportSnap, "step 2 (snapshot)") {
			t.Errorf("%s: the viewport snapshot repeats the tree or does not refer to the step: %q", preset, out.ViewportSnap)
		}
		if n := strings.Count(string(out.JSON()), "Continue to shipping"); n != 1 {
			t.Errorf("%s: the button is printed %d times in the answer, want once", preset, n)
		}
	}
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"snapshot":true},{"fill":{"label":"Full name","value":"Ann"}}]}`)
	mustOK(t, out)
	if !strings.Contains(out.ViewportSnap, `textbox "Full name"`) || !strings.Contains(out.ViewportSnap, `"Ann"`) {
		t.Errorf("a fill after the snapshot: the viewport snapshot should show the page as it is now: %q", out.ViewportSnap)
	}
}

// TestBriefPresetsShrink: compact and minimal name the focused element by
// ref, role and name only (compact's snapshot marks it [focused] instead)
// and leave out the viewport's size, so each
// preset's answer is smaller than the one before it.
func TestBriefPresetsShrink(t *testing.T) {
	tab, base := openShop(t, "checkout.html")
	sizes := map[string]int{}
	for _, preset := range []string{"full", "compact", "minimal"} {
		out := runJSON(t, `{"tab":"`+tab+`","capture":"`+preset+`","steps":[{"goto":"`+base+`checkout.html"},{"click":"#street"}]}`)
		mustOK(t, out)
		sizes[preset] = len(out.JSON())
		ctx := jsonString(out.Context)
		if preset == "full" {
			continue
		}
		if strings.Contains(ctx, `"box"`) || strings.Contains(ctx, `"selector"`) || strings.Contains(ctx, `"viewport"`) {
			t.Errorf("%s: context is not brief: %s", preset, ctx)
		}
		if preset == "compact" {
			// The snapshot marks it [focused]: the context does not repeat it.
			mustContain(t, out.ViewportSnap, `textbox "Street" [focused]`)
			continue
		}
		mustContain(t, ctx, `"role":"textbox"`, `"name":"Street"`, `"ref":"s`)
	}
	if !(sizes["full"] > sizes["compact"] && sizes["compact"] > sizes["minimal"]) {
		t.Errorf("sizes do not shrink: %v", sizes)
	}
}
