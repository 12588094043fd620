package lang

import (
	"time"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// dragEndDoc describes the accepted forms of a drag source or target.
const dragEndDoc = "a selector, a ref, {text} (a card by its words), {selector|ref|text, offsetX, offsetY} (offset from its centre) or {x, y}"

// HoverOptions are hover's parameters.
type HoverOptions struct {
	Target        `keys:"selector ref text exact selectors withinSelector x y" docs:"x=viewport x (with y: hover a point)"`
	Duration      time.Duration `step:"duration" doc:"ms to hold the mouse there" default:"0"`
	CaptureResult bool          `step:"captureResult" doc:"report the menus, tooltips and popovers that appeared, with refs"`
	Acting
}

// DragOptions are drag's parameters.
type DragOptions struct {
	Source *stepopt.DragEnd `step:"source" type:"string|dict" doc:"what to drag: a selector, a ref, {text} (a card by its words), {selector|ref|text, offsetX, offsetY} (offset from its centre) or {x, y}" example:"\"#card-1\""`
	Target *stepopt.DragEnd `step:"target" type:"string|dict" doc:"where to drop: a selector, a ref, {text} (a column by its words), {selector|ref|text, offsetX, offsetY} (offset from its centre) or {x, y}" example:"\"#done\""`
	Method string           `step:"method" doc:"auto (default: mouse, or Chrome's HTML5 drag and drop when the page starts one) | mouse | html5" example:"\"mouse\""`
	Steps  int              `step:"steps" doc:"mouse moves along the path" default:"10"`
	Delay  time.Duration    `step:"delay" doc:"ms between moves" default:"0"`
	Value  *float64         `step:"value" doc:"range input source: the value to set (instead of reading it from the target)"`
	Acting
}

// ScrollOptions are scroll's parameters.
type ScrollOptions struct {
	To       string   `step:"to" doc:"\"top\" or \"bottom\" of the page (the short form {\"scroll\": \"bottom\"} says the same)" example:"\"bottom\""`
	Selector string   `step:"selector,target" doc:"element to scroll into view (centred), or with deltaY/y the scrollable element to move" example:"\"#list\""`
	Ref      string   `step:"ref,target" doc:"ref of that element" example:"\"s1e4\""`
	DeltaX   *float64 `step:"deltaX" doc:"scroll right by this many pixels (negative: left)"`
	DeltaY   *float64 `step:"deltaY" doc:"scroll down by this many pixels (negative: up)" example:"600"`
	X        *float64 `step:"x" doc:"scroll to this horizontal position"`
	Y        *float64 `step:"y" doc:"scroll to this vertical position"`
}

// TargetFields returns scroll's target keys (selector and ref; its x and
// y are a scroll position, not a point to act on).
func (o *ScrollOptions) TargetFields() *Target {
	return &Target{Selector: o.Selector, Ref: o.Ref}
}

func init() {
	register(
		&Action{Name: "hover", Positional: "string", Visual: true, LooksUpFirst: true, Verb: "Hovered", Options: HoverOptions{},
			Example: `{"hover": {"text": "Products", "captureResult": true}}`,
			Doc:     "move the mouse over an element (CSS :hover, mouseenter); captureResult lists what appeared"},
		&Action{Name: "drag", Visual: true, Verb: "Dragged", Options: DragOptions{},
			Example: `{"drag": {"source": "s1e4", "target": "s1e9"}}`,
			Doc:     "drag from a source to a target (mouse drag, HTML5 drag and drop, or a range slider's value)"},
		&Action{Name: "scroll", Positional: "string", Visual: true, Verb: "Scrolled", Options: ScrollOptions{},
			Example: `{"scroll": {"deltaY": 600}}`,
			Doc:     "scroll the page or an element: \"top\", \"bottom\" (or {to}), a selector or ref (into view), {deltaY}, {x, y} or {selector, deltaY}; waits for what the scroll starts, such as a feed's next page"},
	)
}
