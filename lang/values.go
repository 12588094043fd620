package lang

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/starlark"
)

// MaxDuration bounds every duration a step takes (a wait, an interval, a
// delay): no command runs longer than its timeout anyway.
const MaxDuration = time.Hour

// ToDuration reads an int/float of milliseconds or a Go duration string
// ("500ms", "2s"), between 0 and MaxDuration.
func ToDuration(v starlark.Value) (time.Duration, error) {
	switch x := v.(type) {
	case starlark.Int, starlark.Float:
		f, _ := starlark.AsFloat(x)
		return DurationFromMS(f)
	case starlark.String:
		s := strings.TrimSpace(string(x))
		if ms, err := strconv.ParseFloat(s, 64); err == nil {
			return DurationFromMS(ms)
		}
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("must be milliseconds or a duration such as \"500ms\" or \"2s\", not %q", s)
		}
		if d > MaxDuration {
			return 0, fmt.Errorf("%s is more than an hour, the most a step may wait; a command stops at its timeout anyway", s)
		}
		return d, nil
	}
	return 0, fmt.Errorf("must be milliseconds or a duration string, not %s", v.Type())
}

// DurationFromMS converts milliseconds, refusing what is not a number in
// [0, MaxDuration].
func DurationFromMS(f float64) (time.Duration, error) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("must be a finite number of milliseconds, not %v", f)
	case f < 0:
		return 0, fmt.Errorf("must be a non-negative number of milliseconds, not %v", f)
	case f > float64(MaxDuration/time.Millisecond):
		return 0, fmt.Errorf("%g ms is more than an hour (%d ms), the most a step may wait; a command stops at its timeout anyway", f, MaxDuration/time.Millisecond)
	}
	return time.Duration(f * float64(time.Millisecond)), nil
}

// ToInt reads an int, or a float that is a whole number.
func ToInt(v starlark.Value) (int, error) {
	switch x := v.(type) {
	case starlark.Int:
		i, ok := x.Int64()
		if !ok {
			return 0, fmt.Errorf("is out of range")
		}
		return int(i), nil
	case starlark.Float:
		if float64(x) != math.Trunc(float64(x)) {
			return 0, fmt.Errorf("must be a whole number, not %v", x)
		}
		return int(x), nil
	}
	return 0, fmt.Errorf("must be an integer, not %s", v.Type())
}

// ToFloat reads a finite number.
func ToFloat(v starlark.Value) (float64, error) {
	f, ok := starlark.AsFloat(v)
	if !ok {
		return 0, fmt.Errorf("must be a number, not %s", v.Type())
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("must be a finite number, not %v", f)
	}
	return f, nil
}

// ToStringList reads a list (or any iterable) of strings.
func ToStringList(v starlark.Value) ([]string, error) {
	iter, ok := v.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("must be a list of strings, not %s", v.Type())
	}
	var out []string
	it := iter.Iterate()
	defer it.Done()
	var x starlark.Value
	for it.Next(&x) {
		s, ok := starlark.AsString(x)
		if !ok {
			return nil, fmt.Errorf("must be a list of strings; found %s", x.Type())
		}
		out = append(out, s)
	}
	return out, nil
}
