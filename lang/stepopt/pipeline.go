package stepopt

import (
	"encoding/json"
	"fmt"
)

// Operations are pipeline's operations: a non-empty list of operation
// dicts ({find, fill|click|type|check|select}, {waitFor, timeout},
// {sleep}, {return}), which the page runs.
type Operations []*Object

// DecodeOption reads a list of dicts.
func (ops *Operations) DecodeOption(v any) error {
	list, isList := v.([]any)
	if !isList {
		return fmt.Errorf("must be a list of operations, not %s", shape(v))
	}
	if len(list) == 0 {
		return fmt.Errorf(`is empty; give operations such as [{"find": "#email", "fill": "a@b.c"}]`)
	}
	out := make(Operations, len(list))
	for i, e := range list {
		o, isDict := e.(*Object)
		if !isDict {
			raw, _ := json.Marshal(e)
			return fmt.Errorf(`operation %d is %s, not an operation object such as {"find": "#email", "fill": "a@b.c"}`, i, raw)
		}
		out[i] = o
	}
	*ops = out
	return nil
}

// Kwargs are keyword arguments for a recipe, {name: value}, in the order
// given; a value is any plain data.
type Kwargs struct {
	*Object
}

// DecodeOption reads a dict of argument names.
func (k *Kwargs) DecodeOption(v any) error {
	o, err := object(v, `a dict of argument name to value, such as {"email": "a@b.c"}`)
	if err != nil {
		return err
	}
	k.Object = o
	return nil
}
