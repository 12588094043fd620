package builtins

import (
	"encoding/json"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{"pipeline": pipeline})
}

func pipeline(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	ops := options[lang.PipelineOptions](c).Steps
	if c.Args.Pos != nil {
		if err := lang.DecodeValue(&ops, c.Args.Pos); err != nil {
			return nil, invalid("pipeline %v", err)
		}
	}
	if ops == nil {
		return nil, invalid("pipeline needs operations").
			WithAdvice(forExample(`{"pipeline": [{"find": "#email", "fill": "a@b.c"}, {"find": "form button", "click": true}]}`))
	}
	raw, err := json.Marshal(ops)
	if err != nil {
		return nil, invalid("pipeline: %v", err)
	}
	var bops []browser.PipelineOp
	if err := json.Unmarshal(raw, &bops); err != nil {
		return nil, invalid("pipeline operations do not fit: %v", err)
	}
	res, err := p.Scripts().Pipeline(c.Ctx, bops, 0)
	if err != nil {
		return nil, err
	}
	return res, nil
}
