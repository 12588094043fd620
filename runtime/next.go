package runtime

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/cdp-skill/cdp-skill/lang"
)

// NextAction is a ready-to-run step the answer suggests, with the reason:
// pick one of several ambiguous targets, dismiss a blocking layer, use a
// near match, read the next page, record a site profile. None runs by
// itself, and none changes data unless the agent chooses it.
type NextAction struct {
	Why  string         `json:"why"`
	Step map[string]any `json:"step"`
}

// maxNextActions bounds the suggestions of one answer.
const maxNextActions = 5

// nextActions gathers the suggestions of the answer: from the step that
// failed, from a last step whose output has more pages, and for a site
// with no profile yet (once per tab).
func (h *host) nextActions() []NextAction {
	var out []NextAction
	if h.failed != nil {
		out = append(out, failureActions(h.failed.result)...)
	} else if n := len(h.steps); n > 0 {
		out = append(out, pagingActions(h.steps[n-1])...)
	}
	if h.noProfile != "" {
		d := h.noProfile
		out = append(out, NextAction{
			Why: fmt.Sprintf("the template of %s's site profile", d),
			Step: map[string]any{"writeSiteProfile": map[string]any{"domain": d,
				"content": "# " + d + "\n## Environment\n…\n## Quirks\n…\n## Strategies\n…"}},
		})
	}
	if len(out) > maxNextActions {
		out = out[:maxNextActions]
	}
	return out
}

// failureDetails is what a failed step's context offers to act on.
type failureDetails struct {
	Candidates []struct {
		Role, Name, Ref string
	} `json:"candidates"`
	InterceptedBy *struct {
		Kind    string `json:"kind"`
		Buttons []struct {
			Name, Ref string
		} `json:"buttons"`
	} `json:"interceptedBy"`
	NearMatches []struct {
		Text, Ref string
		Score     float64
	} `json:"nearMatches"`
}

// failureActions turns a failed step's context into ready steps.
func failureActions(res *StepResult) []NextAction {
	if res == nil || res.Context == nil {
		return nil
	}
	data, err := json.Marshal(res.Context)
	if err != nil {
		return nil
	}
	var d failureDetails
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	out := hiddenActions(res)
	for _, c := range d.Candidates {
		if step := retarget(res.Action, suggestParams(res, c.Name), c.Ref); step != nil {
			out = append(out, NextAction{Why: fmt.Sprintf("%s the %s %q (%s)", res.Action, c.Role, c.Name, c.Ref), Step: step})
		}
	}
	if d.InterceptedBy != nil {
		for _, b := range d.InterceptedBy.Buttons {
			if b.Ref != "" && dismissive(b.Name) {
				out = append(out, NextAction{Why: fmt.Sprintf("dismiss the %s that covers the target: %q, then repeat the step", d.InterceptedBy.Kind, b.Name),
					Step: map[string]any{"click": b.Ref}})
			}
		}
	}
	for _, m := range d.NearMatches {
		if m.Ref == "" || m.Score < 60 {
			continue
		}
		if step := retarget(res.Action, suggestParams(res, m.Text), m.Ref); step != nil {
			out = append(out, NextAction{Why: fmt.Sprintf("the near match %q (score %.0f)", m.Text, m.Score), Step: step})
		}
	}
	return out
}

// dismissiveName matches the buttons that close a layer without doing
// what it asks: a modal's "Save changes" or "Delete" commits, and is no
// way to get it out of the way.
var dismissiveName = regexp.MustCompile(`(?i)^\s*(×|✕|✖|x|close|cancel|dismiss|no(,? thanks)?|not now|maybe later|later|skip|got it|ok(ay)?|accept( all)?|reject( all)?|decline|deny|allow( all)?|agree|i agree|continue without.*|only necessary.*|necessary only|essential only)\s*[.!]?\s*$|\bclose\b|\bdismiss\b`)

// dismissive says a covering layer's button of that name gets it out of
// the way (an unnamed button is its close icon).
func dismissive(name string) bool {
	return name == "" || dismissiveName.MatchString(name)
}

// secretTarget matches names and targets of fields for secrets.
var secretTarget = regexp.MustCompile(`(?i)passw|passcode|secret|token|api[_-]?key|apikey|private[_-]?key|one-time|\bpin\b|cvv|cvc|credential`)

// suggestParams are the params a suggestion that repeats the failed step
// on the element named name starts from: the step's own, with the text it
// was to type (masked in the echo), unless the step or that element is
// about a secret; then nil, and no such suggestion is made (a step that
// types "••••••" would do harm).
func suggestParams(res *StepResult, name string) any {
	if res.typed == nil {
		return res.Params
	}
	if secretTarget.MatchString(name) {
		return nil
	}
	if data, err := json.Marshal(res.typed); err != nil || secretTarget.Match(data) {
		return nil
	}
	return res.typed
}

// retarget is the failed step aimed at ref instead: the same action and
// options, the target replaced. Nil when the step had no target to
// replace.
func retarget(action string, params any, ref string) map[string]any {
	// Params print as JSON (a lang.Object keeps the step's own key order
	// and spelling): read them back as plain values.
	var plain any
	if data, err := json.Marshal(params); err != nil || json.Unmarshal(data, &plain) != nil {
		return nil
	}
	switch p := plain.(type) {
	case string:
		return map[string]any{action: ref}
	case map[string]any:
		a, known := lang.LookupAction(action)
		if !known {
			return nil
		}
		targets := a.StepTargetKeys(func(k string) bool { _, has := p[k]; return has })
		if len(targets) == 0 {
			return nil
		}
		opts := map[string]any{}
		for k, v := range p {
			if !slices.Contains(targets, k) {
				opts[k] = v
			}
		}
		if len(opts) == 0 {
			return map[string]any{action: ref}
		}
		opts["ref"] = ref
		return map[string]any{action: opts}
	}
	return nil
}

// pagingActions suggests the next page of a step whose output was cut.
func pagingActions(res *StepResult) []NextAction {
	if res == nil || res.Status != StatusOK || res.Output == nil {
		return nil
	}
	data, err := json.Marshal(res.Output)
	if err != nil {
		return nil
	}
	var o struct {
		NextPage   map[string]any `json:"nextPage"`
		TotalRows  int            `json:"totalRows"`
		TotalItems int            `json:"totalItems"`
	}
	if json.Unmarshal(data, &o) != nil || o.NextPage == nil {
		return nil
	}
	return []NextAction{{Why: fmt.Sprintf("read the next page (%d in all)", max(o.TotalRows, o.TotalItems)), Step: o.NextPage}}
}
