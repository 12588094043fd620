package browser

import (
	"context"
	"fmt"
	"strings"
)

// QueryOptions select elements by CSS or by role (spec §11.3).
type QueryOptions struct {
	Selector  string   `json:"selector,omitempty"`
	Roles     []string `json:"roles,omitempty"`
	Name      string   `json:"name,omitempty"`
	NameExact bool     `json:"nameExact,omitempty"`
	NameRegex string   `json:"nameRegex,omitempty"`
	Checked   *bool    `json:"checked,omitempty"`
	Disabled  *bool    `json:"disabled,omitempty"`
	Level     int      `json:"level,omitempty"`
	Limit     int      `json:"limit,omitempty"`
	CountOnly bool     `json:"countOnly,omitempty"`
	// Output is a mode (text, html, href, value, tag, name, role), a list of
	// modes, or {attributes: [...]}.
	Output   any   `json:"output,omitempty"`
	Clean    *bool `json:"clean,omitempty"`
	Metadata bool  `json:"metadata,omitempty"`
}

// QueryResult is the answer of a query.
type QueryResult struct {
	Selector string           `json:"selector,omitempty"`
	Role     any              `json:"role,omitempty"`
	Total    int              `json:"total"`
	Showing  *int             `json:"showing,omitempty"`
	Results  []map[string]any `json:"results,omitempty"`
	Seq      *seqJSON         `json:"seq,omitempty"`
}

// Query finds elements by CSS selector or by role, in the current
// document and the frames below it, and reports the requested output of
// each, with a ref (a frame's match names its frame). An invalid selector fails with
// InvalidSelectorError (the engine checks it as it queries).
func (p *Page) Query(ctx context.Context, q QueryOptions) (*QueryResult, error) {
	q.Selector = strings.TrimSpace(q.Selector)
	if q.Selector == "" && len(q.Roles) == 0 {
		return nil, Errorf(KindStepValidation, "query needs a CSS selector or a role")
	}
	var answer struct {
		QueryResult
		// Frames counts the document's iframes.
		Frames int `json:"frames"`
	}
	if err := p.engineCall(ctx, &answer, epQuery, struct {
		QueryOptions
		Seq seqJSON `json:"seq"`
	}{q, p.seqArg()}); err != nil {
		if strings.Contains(err.Error(), "Invalid regular expression") {
			return nil, Errorf(KindStepValidation, "nameRegex %q is not a valid regular expression", q.NameRegex)
		}
		if KindOf(err) == KindSelector {
			return nil, err
		}
		if strings.Contains(err.Error(), "output") {
			return nil, Errorf(KindStepValidation, "%s", strings.TrimPrefix(err.Error(), "page engine query failed: "))
		}
		return nil, fmt.Errorf("query: %w", err)
	}
	r := answer.QueryResult
	p.storeSeq(r.Seq)
	r.Seq = nil
	if answer.Frames > 0 {
		p.queryFrames(ctx, q, &r)
	}
	if len(q.Roles) == 1 {
		r.Role = q.Roles[0]
	} else if len(q.Roles) > 1 {
		r.Role = q.Roles
	} else {
		r.Selector = q.Selector
	}
	return &r, nil
}

// queryFrames adds the matches of the frames below the current one (a
// document that holds iframes) to r:
// their count to the total, and each match (naming its frame's URL, its
// index running on from the document's) while the limit allows. A frame
// the query fails in is skipped: the document's own answer stands.
func (p *Page) queryFrames(ctx context.Context, q QueryOptions, r *QueryResult) {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	frames := p.framesBelow(ctx)
	for _, f := range frames {
		fr := p.descendant(ctx, f)
		if fr == nil {
			continue
		}
		var sub QueryResult
		if err := p.engineCall(inFrame(ctx, fr), &sub, epQuery, struct {
			QueryOptions
			Seq seqJSON `json:"seq"`
		}{q, p.seqArg()}); err != nil {
			continue
		}
		p.storeSeq(sub.Seq)
		r.Total += sub.Total
		first := len(r.Results)
		r.Results = p.takeFrameMatches(ctx, f, fr, sub.Results, r.Results, limit, func(m map[string]any) map[string]any {
			md, _ := m["metadata"].(map[string]any)
			return md
		})
		for i := first; i < len(r.Results); i++ {
			r.Results[i]["index"] = i
		}
	}
	if len(frames) > 0 {
		p.saveRefFrames()
		if r.Showing != nil {
			n := len(r.Results)
			r.Showing = &n
		}
	}
}
