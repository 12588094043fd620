package browser

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// ScrollOptions say where to scroll (spec §9.7). Give one of To, Target
// alone (scroll it into view, centred), Delta (relative) or X/Y (absolute);
// Target with Delta or X/Y scrolls that element instead of the page.
type ScrollOptions struct {
	// To is "top" or "bottom".
	To string
	// Target is the element to bring into view, or the scrollable element
	// to move with Delta or X/Y.
	Target Target
	// Delta scrolls by this many pixels.
	Delta *Point
	// X and Y scroll to this position (either may be nil: that axis stays).
	X, Y *float64
	// Timeout bounds the wait for Target to exist (default 5 s).
	Timeout time.Duration
}

// ScrollResult is the scroll position after a scroll: the page's, or the
// element's when an element was scrolled.
type ScrollResult struct {
	ScrollX float64 `json:"scrollX"`
	ScrollY float64 `json:"scrollY"`
	// Scrolled is false when nothing moved (already at the end, already in
	// view, or not scrollable).
	Scrolled bool `json:"scrolled"`
	// Container is the element that scrolled when it was not the window
	// (an app pane that scrolls the page, or the element given).
	Container string `json:"container,omitempty"`
	// WindowX and WindowY are the window's position when a container
	// scrolled.
	WindowX *float64       `json:"windowX,omitempty"`
	WindowY *float64       `json:"windowY,omitempty"`
	Element map[string]any `json:"element,omitempty"`
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// scrollOut is the engine's answer to the scroll functions.
type scrollOut struct {
	ScrollX   float64  `json:"scrollX"`
	ScrollY   float64  `json:"scrollY"`
	Scrolled  bool     `json:"scrolled"`
	WindowX   *float64 `json:"windowX"`
	WindowY   *float64 `json:"windowY"`
	Container string   `json:"container"`
	// Reason says why nothing moved: top, bottom, left, right, position,
	// not-scrollable or hidden.
	Reason  string `json:"reason"`
	Detail  string `json:"detail"`
	Nearest string `json:"nearest"`
}

// scrollOp is the JSON the engine's scroll functions take.
type scrollOp struct {
	Kind string   `json:"kind"`
	DX   float64  `json:"dx,omitempty"`
	DY   float64  `json:"dy,omitempty"`
	X    *float64 `json:"x,omitempty"`
	Y    *float64 `json:"y,omitempty"`
}

// Scroll scrolls the page or an element, instantly (whatever
// scroll-behavior the page sets), and reports the new position. It runs on
// the action template: the target only has to exist (a hidden one gets a
// warning, not a wait), and what the scroll starts (a feed's next page,
// lazy content) is settled as a click's consequences are, without the
// change log a click starts: a scroll is not news, and what a page's
// timers change meanwhile is not the scroll's.
func (p *Page) Scroll(ctx context.Context, o ScrollOptions) (*ScrollResult, error) {
	op, err := o.op()
	if err != nil {
		return nil, err
	}
	var out scrollOut
	res := &ScrollResult{}
	s, err := p.perform(ctx, o.Target, action{
		kind: "scroll", opts: ActionOptions{Timeout: o.Timeout},
		targetOptional: true, attachedOnly: true, quiet: true,
		prepare: func(ctx context.Context, s *acting) error {
			if s.ready != nil {
				res.Element, s.reported = s.el().info(ctx), true
			}
			return nil
		},
		act: func(ctx context.Context, s *acting) error {
			return p.scrollAct(ctx, s, op, &out)
		},
	})
	if err != nil {
		return nil, err
	}
	res.Warnings = s.warnings
	res.ScrollX, res.ScrollY, res.Scrolled = out.ScrollX, out.ScrollY, out.Scrolled
	res.Container, res.WindowX, res.WindowY = out.Container, out.WindowX, out.WindowY
	if w := scrollWarning(o, op, out); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// scrollAct scrolls the page (no target) or the target element.
func (p *Page) scrollAct(ctx context.Context, s *acting, op scrollOp, out *scrollOut) error {
	if s.ready == nil {
		if err := p.engineCall(ctx, out, epScrollPage, op); err != nil {
			return fmt.Errorf("scroll: %w", err)
		}
		return nil
	}
	var err error
	if op.Kind == "into" {
		err = s.el().call(ctx, out, epScrollIntoCenter)
	} else {
		err = s.el().call(ctx, out, epScrollElement, op)
	}
	if err != nil {
		return fmt.Errorf("scroll: %w", err)
	}
	return nil
}

// op validates the options and turns them into the engine's operation.
func (o ScrollOptions) op() (scrollOp, error) {
	abs := o.X != nil || o.Y != nil
	n := 0
	for _, set := range []bool{o.To != "", o.Delta != nil, abs} {
		if set {
			n++
		}
	}
	switch {
	case n > 1:
		return scrollOp{}, Errorf(KindStepValidation, "scroll takes one of \"top\"/\"bottom\", deltaX/deltaY or x/y, not several")
	case o.To != "" && !o.Target.IsZero():
		return scrollOp{}, Errorf(KindStepValidation, "scroll: %q scrolls the page; to scroll an element give it with deltaY or y", o.To)
	case o.To != "":
		to := strings.ToLower(o.To)
		if to != "top" && to != "bottom" {
			return scrollOp{}, Errorf(KindStepValidation, "scroll: %q is not top or bottom", o.To)
		}
		return scrollOp{Kind: to}, nil
	case o.Delta != nil:
		return scrollOp{Kind: "delta", DX: o.Delta.X, DY: o.Delta.Y}, nil
	case abs:
		return scrollOp{Kind: "abs", X: o.X, Y: o.Y}, nil
	case !o.Target.IsZero():
		if o.Target.Point != nil {
			return scrollOp{}, Errorf(KindStepValidation, "scroll: give x/y alone to scroll to a position")
		}
		return scrollOp{Kind: "into"}, nil
	}
	return scrollOp{}, Errorf(KindStepValidation, "scroll needs where to: \"top\", \"bottom\", a selector or ref, {deltaY}, {x, y} or {selector, deltaY}")
}

// scrollWarning explains a scroll that moved nothing.
func scrollWarning(o ScrollOptions, op scrollOp, out scrollOut) string {
	if out.Scrolled {
		return ""
	}
	what := "the page"
	if !o.Target.IsZero() {
		what = o.Target.String()
	} else if out.Container != "" {
		what = out.Container
	}
	switch out.Reason {
	case "not-scrollable":
		msg := fmt.Sprintf("nothing moved: %s is not scrollable (its content fits)", what)
		if out.Nearest != "" {
			msg += fmt.Sprintf("; its nearest scrollable ancestor is %s", out.Nearest)
		}
		return msg
	case "hidden":
		return fmt.Sprintf("nothing moved: %s is not rendered (%s), so it cannot be scrolled into view", what, out.Detail)
	case "top", "bottom", "left", "right":
		return fmt.Sprintf("nothing moved: %s is already at the %s", what, out.Reason)
	case "position":
		return fmt.Sprintf("nothing moved: %s is already at that position", what)
	}
	return ""
}
