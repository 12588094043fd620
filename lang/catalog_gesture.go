package lang

// dragEndDoc describes the accepted forms of a drag source or target.
const dragEndDoc = "a selector, a ref, {selector|ref, offsetX, offsetY} (offset from its centre) or {x, y}"

func init() {
	register(
		&Action{Name: "hover", Positional: "string", Visual: true,
			Params: withParams(targetParams, []Param{
				{Name: "selectors", Type: "list", Doc: "selectors tried in order", Target: true},
				{Name: "withinSelector", Type: "string", Doc: "with text: search inside this element", Target: true},
				{Name: "x", Type: "number", Doc: "viewport x (with y: hover a point)", Target: true},
				{Name: "y", Type: "number", Doc: "viewport y", Target: true},
				{Name: "duration", Type: "int|string", Doc: "ms to hold the mouse there (default 0)"},
				{Name: "captureResult", Type: "bool", Doc: "report the menus, tooltips and popovers that appeared, with refs"},
			}, actionParams),
			Doc: "move the mouse over an element (CSS :hover, mouseenter); captureResult lists what appeared"},
		&Action{Name: "drag", Visual: true,
			Params: withParams([]Param{
				{Name: "source", Type: "string|dict", Doc: "what to drag: " + dragEndDoc},
				{Name: "target", Type: "string|dict", Doc: "where to drop: " + dragEndDoc},
				{Name: "method", Type: "string", Doc: "auto (default: mouse, or Chrome's HTML5 drag and drop when the page starts one) | mouse | html5"},
				{Name: "steps", Type: "int", Doc: "mouse moves along the path (default 10)"},
				{Name: "delay", Type: "int|string", Doc: "ms between moves"},
				{Name: "value", Type: "number", Doc: "range input source: the value to set (instead of reading it from the target)"},
			}, actionParams),
			Doc: "drag from a source to a target (mouse drag, HTML5 drag and drop, or a range slider's value)"},
		&Action{Name: "scroll", Positional: "string", Visual: true,
			Params: []Param{
				{Name: "selector", Type: "string", Doc: "element to scroll into view (centred), or with deltaY/y the scrollable element to move", Target: true},
				{Name: "ref", Type: "string", Doc: "ref of that element", Target: true},
				{Name: "deltaX", Type: "number", Doc: "scroll right by this many pixels (negative: left)"},
				{Name: "deltaY", Type: "number", Doc: "scroll down by this many pixels (negative: up)"},
				{Name: "x", Type: "number", Doc: "scroll to this horizontal position"},
				{Name: "y", Type: "number", Doc: "scroll to this vertical position"},
			},
			Doc: "scroll the page or an element: \"top\", \"bottom\", a selector or ref (into view), {deltaY}, {x, y} or {selector, deltaY}"},
	)
}
