package stepopt

import (
	"fmt"
	"strings"
)

// key is one key a dict-shaped parameter takes, and how to read its
// value.
type key struct {
	name string
	set  func(v any) error
}

// decodeKeys reads a dict with the keys of keys, in the dict's order; a
// key not listed is an error naming the valid ones.
func decodeKeys(o *Object, keys ...key) error {
	for _, k := range o.Keys {
		v := o.Values[k]
		i := keyIndex(keys, k)
		if i < 0 {
			return fmt.Errorf("has no key %q; valid: %s", k, keyNames(keys))
		}
		if v == nil {
			continue
		}
		if err := keys[i].set(v); err != nil {
			return fmt.Errorf("%s %w", k, err)
		}
	}
	return nil
}

func keyIndex(keys []key, name string) int {
	for i, k := range keys {
		if k.name == name {
			return i
		}
	}
	return -1
}

func keyNames(keys []key) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}

// str reads a string into dst.
func str(dst *string) func(any) error {
	return func(v any) error {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be a string, not %s", shape(v))
		}
		*dst = s
		return nil
	}
}

// boolean reads true or false into dst.
func boolean(dst *bool) func(any) error {
	return func(v any) error {
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("must be true or false, not %s", shape(v))
		}
		*dst = b
		return nil
	}
}

// number reads a number into dst.
func number(dst *float64) func(any) error {
	return func(v any) error {
		f, ok := numberOf(v)
		if !ok {
			return fmt.Errorf("must be a number, not %s", shape(v))
		}
		*dst = f
		return nil
	}
}

// numberOf reads an int64 or a float64.
func numberOf(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// stringList reads a string or a list of strings into dst.
func stringList(dst *[]string) func(any) error {
	return func(v any) error {
		var s Strings
		if err := s.DecodeOption(v); err != nil {
			return err
		}
		*dst = s
		return nil
	}
}

// object reads a dict.
func object(v any, what string) (*Object, error) {
	o, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("must be %s, not %s", what, shape(v))
	}
	return o, nil
}
