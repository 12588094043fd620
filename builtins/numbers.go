package builtins

import (
	"fmt"
	"math"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// MaxDuration bounds every duration a step takes (a wait, an interval, a
// delay): no command runs longer than its timeout anyway.
const MaxDuration = lang.MaxDuration

// MaxCoordinate bounds x and y of a point: CSS pixels of a viewport, which
// is never this large.
const MaxCoordinate = 100_000

// ToTimeout reads a step timeout: milliseconds or a duration string, at
// least 1 ms. One above lang.MaxTimeoutMS is clamped to it, and note says
// so for the step's warnings (spec §18.3); note is "" otherwise.
func ToTimeout(v starlark.Value) (d time.Duration, note string, err error) {
	const max = lang.MaxTimeoutMS * time.Millisecond
	if f, ok := starlark.AsFloat(v); ok && f > lang.MaxTimeoutMS {
		return max, lang.ClampedTimeoutNote(fmt.Sprintf("%s ms", v)), nil
	}
	if s, ok := starlark.AsString(v); ok {
		if long, err := time.ParseDuration(strings.TrimSpace(s)); err == nil && long > max {
			return max, lang.ClampedTimeoutNote(s), nil
		}
	}
	if d, err = ToDuration(v); err != nil {
		return 0, "", err
	}
	if err := CheckTimeout(d); err != nil {
		return 0, "", err
	}
	return d, "", nil
}

// CheckTimeout refuses a timeout below 1 ms or above lang.MaxTimeoutMS.
func CheckTimeout(d time.Duration) error {
	switch {
	case d < time.Millisecond:
		return fmt.Errorf("%v is below 1 ms, so every step would fail at once: give at least 1 (ms), or leave timeout out for the default (30000)", d)
	case d > lang.MaxTimeoutMS*time.Millisecond:
		return fmt.Errorf("%v is above the maximum step timeout of %d ms (5 minutes): give less, or split the work into several steps", d, lang.MaxTimeoutMS)
	}
	return nil
}

// checkPoint refuses a point that cannot be in any viewport.
func checkPoint(action string, pt browser.Point) error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"x", pt.X}, {"y", pt.Y}} {
		if math.IsNaN(c.v) || math.IsInf(c.v, 0) || c.v < -MaxCoordinate || c.v > MaxCoordinate {
			return invalid("%s: %s = %g is outside any viewport: x and y are CSS pixels from the viewport's top left corner (take them from a snapshot's box or elementsAt)", action, c.name, c.v)
		}
	}
	return nil
}
