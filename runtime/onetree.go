package runtime

import (
	"fmt"

	"github.com/cdp-skill/cdp-skill/builtins"
	"github.com/cdp-skill/cdp-skill/lang"
)

// treeMark remembers the last step that put the page's tree in the answer
// (a snapshot step's yaml), so the capture after the command does not
// print the same page a second time.
type treeMark struct {
	// step is the step's index in steps[] (from 0; the note numbers it
	// from 1, as errors[].step does).
	step int
	// visualSteps is how many visual steps had run when it was taken:
	// one more since means the page may have changed after it.
	visualSteps int
	// inFrame says a frame step had scoped the command then: the
	// snapshot shows that frame, not the page the capture shows.
	inFrame bool
	// yaml is the tree the step printed.
	yaml string
}

// noteTree records a step whose output carries the page's tree.
func (h *host) noteTree(a *lang.Action, out any) {
	if !a.PrintsTree {
		return
	}
	if sh, isShaped := out.(builtins.Shaped); isShaped {
		out = sh.Value
	}
	m, ok := out.(map[string]any)
	if !ok || m["yaml"] == nil {
		return
	}
	yaml, _ := m["yaml"].(string)
	mark := &treeMark{step: len(h.steps) - 1, visualSteps: h.visualSteps, yaml: yaml}
	mark.inFrame = h.env.Frame() != nil
	h.tree = mark
}

// treeShown says the answer already carries the page as the capture would
// show it: a snapshot step ran after the last visual step, in the top
// document. It returns the note that stands in for the viewport snapshot.
func (h *host) treeShown() (string, bool) {
	t := h.tree
	if t == nil || t.inFrame || t.visualSteps != h.visualSteps {
		return "", false
	}
	return fmt.Sprintf("# nothing changed after step %d (snapshot): its yaml is the page", t.step+1), true
}
