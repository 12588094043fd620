package runtime

import (
	"github.com/cdp-skill/cdp-skill/lang"
)

// A failed step echoes its parameters so the agent sees what was asked;
// the text a fill or a type step was to enter is not echoed: it may be a
// password, and the agent has it already.

// maskedTyped stands in a failed step's parameters for text it was to
// enter.
const maskedTyped = "••••••"

// locatorParams are the parameters of fill and type that name the target,
// not the text, and stay in the echo.
var locatorParams = map[string]bool{"selector": true, "ref": true, "label": true, "exact": true, "frame": true, "clear": true, "react": true, "delay": true}

// maskTypedParams returns params with the text an action was to type
// masked: fill's value (or each value of its map form), type's text, and
// the fill and type operations of a pipeline.
func maskTypedParams(action string, params any) any {
	switch action {
	case "fill", "type":
		return maskTyped(action, params)
	case "pipeline":
		ops, ok := params.([]any)
		if !ok {
			return params
		}
		out := make([]any, len(ops))
		for i, op := range ops {
			out[i] = maskPipelineOp(op)
		}
		return out
	}
	return params
}

func maskTyped(action string, params any) any {
	o, ok := params.(*lang.Object)
	if !ok {
		if _, isBool := params.(bool); isBool || params == nil {
			return params
		}
		return maskedTyped // the positional text (or map of fields)
	}
	c := &lang.Object{Keys: o.Keys, Values: make(map[string]any, len(o.Values))}
	for k, v := range o.Values {
		switch {
		case k == "text" && action == "fill":
			c.Values[k] = v // fill's text locates the field
		case locatorParams[k]:
			c.Values[k] = v
		case k == "value" || k == "text" || k == "fields":
			c.Values[k] = maskedTyped
		default:
			if _, s := v.(string); s {
				c.Values[k] = maskedTyped // a field of the map form
			} else {
				c.Values[k] = v
			}
		}
	}
	return c
}

// maskPipelineOp masks the fill and type values of one pipeline operation.
func maskPipelineOp(op any) any {
	switch o := op.(type) {
	case *lang.Object:
		c := &lang.Object{Keys: o.Keys, Values: make(map[string]any, len(o.Values))}
		for k, v := range o.Values {
			if k == "fill" || k == "type" {
				v = maskedTyped
			}
			c.Values[k] = v
		}
		return c
	case map[string]any:
		c := make(map[string]any, len(o))
		for k, v := range o {
			if k == "fill" || k == "type" {
				v = maskedTyped
			}
			c[k] = v
		}
		return c
	}
	return op
}
