package runtime

import (
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
	"github.com/cdp-skill/cdp-skill/lang"
)

// syntax is how this program's answer writes the steps a hint suggests:
// the host's own (an MCP tool's arguments), else as a JSON step for a JSON
// command and as a builtin call for a recipe.
func (h *host) syntax() suggest.Syntax {
	switch {
	case h.opts.StepSyntax != nil:
		return h.opts.StepSyntax
	case h.recipe():
		return StarlarkStep
	}
	return suggest.JSON
}

// errorText is err's text for the answer, its hints in the program's
// syntax.
func (h *host) errorText(err error) string {
	return browser.AdviceIn(err, h.syntax())
}

// recipe reports whether the program's steps are written as builtin calls
// (a recipe's), not as JSON steps or an MCP tool's arguments.
func (h *host) recipe() bool {
	return h.opts.StepSyntax == nil && !h.prog.FromJSON
}

// stepErrorText is the text of step a's error, naming the step as the
// program writes it: a message that starts with the step's name in the
// other syntax ("wait_for_response needs a URL pattern" in a JSON
// command, "snapshotSearch needs text" in a recipe) is given this one's.
func (h *host) stepErrorText(a *lang.Action, err error) string {
	text := h.errorText(err)
	if a == nil || a.Builtin() == a.Name {
		return text
	}
	from, to := a.Builtin(), a.Name
	if h.recipe() {
		from, to = to, from
	}
	if rest, ok := strings.CutPrefix(text, from+" "); ok {
		return to + " " + rest
	}
	return text
}

// StarlarkStep writes a suggested step as the recipe's builtin call
// (reload(), fill(ref = "s1e4", value = "35")), lowered as a JSON command's
// step is; a step the catalog refuses stays in JSON.
func StarlarkStep(s suggest.Step) string {
	req, err := lang.ParseRequest([]byte(`{"steps":[` + s.JSON() + `]}`))
	if err != nil || len(req.Steps) != 1 {
		return s.JSON()
	}
	line, err := lang.LowerStep(req.Steps[0])
	if err != nil {
		return s.JSON()
	}
	return line
}
