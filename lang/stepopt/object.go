package stepopt

import (
	"bytes"
	"encoding/json"
)

// Object is a dict or JSON object that keeps its key order (a batch fill
// fills in the order the agent wrote; a fulfilled JSON body keeps its
// keys' order).
type Object struct {
	Keys   []string
	Values map[string]any
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	v, ok := o.Values[key]
	return v, ok
}

// Set sets key to v, adding key last when it is new.
func (o *Object) Set(key string, v any) {
	if _, dup := o.Values[key]; !dup {
		o.Keys = append(o.Keys, key)
	}
	o.Values[key] = v
}

// MarshalJSON writes the object in key order.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.Values[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
