package runtime

import (
	"strings"
	"testing"
)

// TestAnswerSaysWhereAndWhatIsFocusedOnce: a goto's url and title are the
// context's, so the step does not repeat them (a goto followed by another
// navigation keeps its own). The context's activeElement stays with the
// spec's fields (issue 29 item 15), also when the snapshot marks the
// element [focused]: the spec's contract wins over those bytes.
func TestAnswerSaysWhereAndWhatIsFocusedOnce(t *testing.T) {
	base := lateSite(t)
	out := runJSON(t, `{"steps":[{"openTab":"about:blank"},{"goto":"`+base+`newsletter.html"}]}`)
	closeTabAfter(t, out)
	mustOK(t, out)
	if o := out.Steps[1].Output; o != nil {
		t.Errorf("goto repeats the context: %s", jsonString(o))
	}
	if !strings.Contains(out.ViewportSnap, `textbox "Email" [focused]`) || out.Context.ActiveElement == nil {
		t.Errorf("activeElement %s next to the snapshot:\n%s", jsonString(out.Context.ActiveElement), out.ViewportSnap)
	}
	two := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"goto":"`+base+`plain.html"},{"goto":"`+base+`newsletter.html"}]}`)
	mustOK(t, two)
	if got := jsonString(two.Steps[0].Output); !strings.Contains(got, "plain.html") || two.Steps[1].Output != nil {
		t.Errorf("the first goto's own url %s, the last's %s", got, jsonString(two.Steps[1].Output))
	}
	// Focus on an element of the banner, which the scoped snapshot leaves
	// out: the context names it.
	shop := pagesURL(t) + "shop/product.html"
	far := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"goto":"`+shop+`"},{"focus":{"label":"Search the shop"}}]}`)
	mustOK(t, far)
	if strings.Contains(far.ViewportSnap, "[focused]") || far.Context.ActiveElement == nil {
		t.Errorf("focus outside the snapshot: activeElement %s\n%s", jsonString(far.Context.ActiveElement), far.ViewportSnap)
	}
}
