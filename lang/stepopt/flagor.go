package stepopt

import "fmt"

// Refs is pageFunction's refs: true hands the function one object of
// every ref's element, a list of refs hands it those elements.
type Refs struct {
	// All is refs = true.
	All bool
	// List is the refs given as a list (nil when refs is a bool).
	List []string
}

// DecodeOption reads a bool or a list of refs.
func (r *Refs) DecodeOption(v any) error {
	switch x := v.(type) {
	case bool:
		r.All = x
		return nil
	case []any:
		var s Strings
		if err := s.DecodeOption(x); err != nil {
			return fmt.Errorf("must be true or a list of refs: %w", err)
		}
		r.List = s
		return nil
	}
	return fmt.Errorf("must be true or a list of refs, not %s", shape(v))
}

// Abort is route's abort: true (the browser's default reason) or a
// reason ("ConnectionRefused").
type Abort struct {
	// Reason is the reason given ("" for true).
	Reason string
}

// DecodeOption reads true or a reason string.
func (a *Abort) DecodeOption(v any) error {
	switch x := v.(type) {
	case bool:
		if !x {
			return fmt.Errorf(`must be true or a reason such as "ConnectionRefused"`)
		}
		return nil
	case string:
		a.Reason = x
		return nil
	}
	return fmt.Errorf("must be true or a reason string, not %s", shape(v))
}
