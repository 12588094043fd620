package runtime

import (
	"strings"
	"testing"
)

// pageValue reads a value of the tab's page with a pageFunction step.
func pageValue(t *testing.T, tab, fn string) string {
	t.Helper()
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"pageFunction":"`+fn+`"}]}`)
	mustOK(t, out)
	return jsonString(out.Steps[0].Output)
}

// TestEffectAfterNavigationInCommandIsKept: [goto checkout, click
// "Continue to shipping"] with capture minimal reports the validation
// text the click produced, credited to the click, and flags the
// navigation; the page's handler ran once.
func TestEffectAfterNavigationInCommandIsKept(t *testing.T) {
	tab, base := openShop(t, "checkout.html")
	out := runJSON(t, `{"tab":"`+tab+`","capture":"minimal","steps":[{"goto":"`+base+`checkout.html"},{"click":{"text":"Continue to shipping"}}]}`)
	mustOK(t, out)
	if out.Changes == nil {
		t.Fatalf("no changes: %s", out.JSON())
	}
	mustContain(t, out.Changes.Summary, `step 2 (click): Alert: "Please complete: Full name, Street, City".`, "step 1 (goto): Navigated to "+base+"checkout.html")
	mustContain(t, newsLines(out.Changes), "+ alert: Please complete: Full name, Street, City")
	if !out.Navigated {
		t.Errorf("the goto (a new document at the same URL) is not flagged: %s", out.JSON())
	}
	if got := pageValue(t, tab, "() => window.submits"); got != "1" {
		t.Errorf("the form's submit handler ran %s times, want 1", got)
	}
}

// TestFiveStepBatchReportsLastPagesEffect: goto → fill → click → link →
// "Add to cart" reports "Added 1 × …" from the product page the link
// opened, names each navigation's step, and the page counted one add.
func TestFiveStepBatchReportsLastPagesEffect(t *testing.T) {
	tab, base := openShop(t, "index.html")
	out := runJSON(t, `{"tab":"`+tab+`","capture":"minimal","steps":[
		{"goto":"`+base+`index.html"},
		{"fill":{"selector":"input[type=search]","value":"lamp"}},
		{"click":{"text":"Search"}},
		{"click":{"text":"Brass Clip Lamp"}},
		{"click":{"text":"Add to cart"}}]}`)
	mustOK(t, out)
	if out.Changes == nil {
		t.Fatalf("no changes: %s", out.JSON())
	}
	mustContain(t, out.Changes.Summary, "step 4 (click): Navigated to "+base+"product.html?id=1.", `step 5 (click): Status: "Added 1 × Brass Clip Lamp".`)
	if len(out.Changes.Changed) != 1 || out.Changes.Changed[0].To != "Cart (1)" {
		t.Errorf("the cart link's new name is not in changed: %s", jsonString(out.Changes))
	}
	if got := pageValue(t, tab, "() => window.adds"); got != "1" {
		t.Errorf("the page counted %s adds, want 1", got)
	}
}

// TestHoverThenClickCreditsTheClick: [hover the menu, click its item]
// credits the status change to the click (step 2), not the hover.
func TestHoverThenClickCreditsTheClick(t *testing.T) {
	tab, _ := openShop(t, "index.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"hover":{"text":"Products"}},{"click":{"text":"Smart bulbs"}}]}`)
	mustOK(t, out)
	if out.Changes == nil {
		t.Fatalf("no changes: %s", out.JSON())
	}
	s := out.Changes.Summary
	if !strings.HasPrefix(s, `step 2 (click): Status now: "Showing 4 smart bulbs".`) || strings.Contains(s, "Hovered") || strings.Contains(s, "step 1 ") {
		t.Errorf("summary does not credit the click: %q", s)
	}
	if got := pageValue(t, tab, "() => window.filters"); got != "1" {
		t.Errorf("the filter ran %s times, want 1", got)
	}
}

// TestEachStepsNewsNamesItsStep: two clicks on one page, each showing a
// text, are each credited with their own (the news read between them).
func TestEachStepsNewsNamesItsStep(t *testing.T) {
	tab, _ := openShop(t, "product.html")
	out := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":{"text":"Add to cart"}},{"fill":{"label":"Quantity","value":"3"}},{"click":{"text":"Add to cart"}}]}`)
	mustOK(t, out)
	if out.Changes == nil {
		t.Fatalf("no changes: %s", out.JSON())
	}
	mustContain(t, out.Changes.Summary, `step 1 (click): Status: "Added 1 × Brass Clip Lamp".`, `step 3 (click): Status: "Added 3 × Brass Clip Lamp".`)
	if strings.Contains(out.Changes.Summary, "Transient") {
		t.Errorf("the first add's status, replaced by the second, is called transient: %q", out.Changes.Summary)
	}
	if got := pageValue(t, tab, "() => window.adds"); got != "2" {
		t.Errorf("the page counted %s adds, want 2", got)
	}
}
