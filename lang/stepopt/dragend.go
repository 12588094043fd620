package stepopt

import (
	"fmt"
	"strings"
)

// DragEnd is a drag's source or target: a selector or ref string, or a
// dict {selector|ref|text, offsetX, offsetY} or {x, y}. Which of them is
// given, and whether the ref and point are valid, the builtin's target
// parser checks.
type DragEnd struct {
	// Positional is the string form (a selector or a ref).
	Positional string
	Selector   string
	Ref        string
	Text       string
	// X and Y are a viewport point (nil: not given).
	X, Y *float64
	// OffsetX and OffsetY move the point from the element's centre.
	OffsetX, OffsetY float64
}

// dragEndKeys maps the keys of a drag end dict (JSON and Starlark
// spellings) to their field.
var dragEndKeys = map[string]string{
	"selector": "selector", "ref": "ref", "text": "text", "x": "x", "y": "y",
	"offsetX": "offsetX", "offset_x": "offsetX", "offsetY": "offsetY", "offset_y": "offsetY",
}

// DecodeOption reads a string or a drag end dict.
func (e *DragEnd) DecodeOption(v any) error {
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return fmt.Errorf("is empty")
		}
		e.Positional = x
		return nil
	case *Object:
		for _, k := range x.Keys {
			if err := e.set(k, x.Values[k]); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("must be a selector, a ref or a dict, not %s", shape(v))
}

func (e *DragEnd) set(k string, v any) error {
	field, known := dragEndKeys[k]
	if !known {
		return fmt.Errorf("has no key %q; use selector, ref, text, offsetX, offsetY, or x and y", k)
	}
	if dst := map[string]*string{"selector": &e.Selector, "ref": &e.Ref, "text": &e.Text}[field]; dst != nil {
		s, isStr := v.(string)
		if !isStr {
			return fmt.Errorf("%s must be a string, not %s", k, shape(v))
		}
		*dst = s
		return nil
	}
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		return fmt.Errorf("%s must be a number, not %s", k, shape(v))
	}
	switch field {
	case "x":
		e.X = &f
	case "y":
		e.Y = &f
	case "offsetX":
		e.OffsetX = f
	default:
		e.OffsetY = f
	}
	return nil
}
