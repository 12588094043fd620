package stepopt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Rect is screenshot's region: an area in page CSS pixels.
type Rect struct {
	X, Y, Width, Height float64
}

// DecodeOption reads {x, y, width, height}.
func (r *Rect) DecodeOption(v any) error {
	o, err := object(v, "a dict {x, y, width, height}")
	if err != nil {
		return err
	}
	return decodeKeys(o, key{"x", number(&r.X)}, key{"y", number(&r.Y)},
		key{"width", number(&r.Width)}, key{"height", number(&r.Height)})
}

// Length is a pdf length in inches, given as a number of inches or as a
// string with a unit ("1cm", "10mm", "96px", "72pt", "1pc", "0.5in").
type Length float64

// DecodeOption reads a number or a string with a unit.
func (l *Length) DecodeOption(v any) error {
	if f, ok := numberOf(v); ok {
		*l = Length(f)
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf(`must be a number of inches or a length such as "1cm", not %s`, shape(v))
	}
	f, err := ParseInches(s)
	if err != nil {
		return err
	}
	*l = Length(f)
	return nil
}

// lengthUnits convert CSS lengths to inches (two-letter units only, so
// no unit is the suffix of another).
var lengthUnits = map[string]float64{"in": 1, "cm": 1 / 2.54, "mm": 1 / 25.4, "px": 1.0 / 96, "pt": 1.0 / 72, "pc": 1.0 / 6}

// ParseInches reads a length: a number of inches, or a number with a
// unit (in, cm, mm, px, pt, pc), e.g. "1cm".
func ParseInches(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	factor := 1.0
	if f, isUnit := lengthUnits[t[max(len(t)-2, 0):]]; isUnit {
		t, factor = strings.TrimSpace(t[:len(t)-2]), f
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a length: give inches (0.5) or a number with a unit (1cm, 10mm, 96px, 72pt)", s)
	}
	return v * factor, nil
}

// Margin is pdf's margin: one length for every side, or some sides by
// name. A side not given is nil (the browser's default).
type Margin struct {
	Top, Bottom, Left, Right *float64
}

// DecodeOption reads a length or {top, bottom, left, right}.
func (m *Margin) DecodeOption(v any) error {
	o, isDict := v.(*Object)
	if !isDict {
		var l Length
		if err := l.DecodeOption(v); err != nil {
			return err
		}
		n := float64(l)
		*m = Margin{Top: &n, Bottom: &n, Left: &n, Right: &n}
		return nil
	}
	side := func(dst **float64) func(any) error {
		return func(v any) error {
			var l Length
			if err := l.DecodeOption(v); err != nil {
				return err
			}
			n := float64(l)
			*dst = &n
			return nil
		}
	}
	return decodeKeys(o, key{"top", side(&m.Top)}, key{"bottom", side(&m.Bottom)},
		key{"left", side(&m.Left)}, key{"right", side(&m.Right)})
}
