package stepopt

import "fmt"

// Field is one field of a batch fill: its key (a ref, a CSS selector or
// a label) and the text to fill in.
type Field struct {
	Key   string
	Value string
}

// Fields is fill's batch: {selector or ref or label: value}, filled in
// the order given. A value is text, a number or a bool (written as
// Starlark prints it); None fills "".
type Fields []Field

// DecodeOption reads the batch dict.
func (f *Fields) DecodeOption(v any) error {
	o, err := object(v, `a dict of selector, ref or label to value, such as {"#email": "a@b.c"}`)
	if err != nil {
		return err
	}
	if len(o.Keys) == 0 {
		return fmt.Errorf(`is empty; give {"#email": "a@b.c"}`)
	}
	out := make(Fields, 0, len(o.Keys))
	for _, k := range o.Keys {
		val := o.Values[k]
		s, ok := textOf(val)
		if val == nil {
			s, ok = "", true
		}
		if !ok {
			return fmt.Errorf("%q: a fill value must be text or a number, not %s", k, shape(val))
		}
		out = append(out, Field{Key: k, Value: s})
	}
	*f = out
	return nil
}
