package builtins

import (
	"encoding/json"

	"go.starlark.net/starlark"

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
	v := c.Args.Pos
	if v == nil {
		v = options[lang.PipelineOptions](c).Steps
	}
	if v == nil {
		return nil, invalid(`pipeline needs operations: {"pipeline": [{"find": "#email", "fill": "a@b.c"}, {"find": "form button", "click": true}]}`)
	}
	if _, ok := v.(starlark.Iterable); !ok {
		return nil, invalid("pipeline takes a list of operations, not %s", v.Type())
	}
	data, err := FromStarlark(v)
	if err != nil {
		return nil, invalid("pipeline: %v", err)
	}
	if list, ok := data.([]any); ok {
		for i, op := range list {
			switch op.(type) {
			case *lang.Object, map[string]any:
			default:
				raw, _ := json.Marshal(op)
				return nil, invalid(`pipeline operation %d is %s, not an operation object such as {"find": "#email", "fill": "a@b.c"}`, i, raw)
			}
		}
	}
	raw, _ := json.Marshal(data)
	var ops []browser.PipelineOp
	if err := json.Unmarshal(raw, &ops); err != nil {
		return nil, invalid("pipeline operations must be objects: %v", err)
	}
	res, err := p.Scripts().Pipeline(c.Ctx, ops, 0)
	if err != nil {
		return nil, err
	}
	return res, nil
}
