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

// Query finds elements by CSS selector or by role and reports the requested
// output of each, with a ref. An invalid selector fails with
// InvalidSelectorError (the engine checks it as it queries).
func (p *Page) Query(ctx context.Context, q QueryOptions) (*QueryResult, error) {
	q.Selector = strings.TrimSpace(q.Selector)
	if q.Selector == "" && len(q.Roles) == 0 {
		return nil, Errorf(KindStepValidation, "query needs a CSS selector or a role")
	}
	var r QueryResult
	if err := p.engineCall(ctx, &r, epQuery, struct {
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
	p.storeSeq(r.Seq)
	r.Seq = nil
	if len(q.Roles) == 1 {
		r.Role = q.Roles[0]
	} else if len(q.Roles) > 1 {
		r.Role = q.Roles
	} else {
		r.Selector = q.Selector
	}
	return &r, nil
}
