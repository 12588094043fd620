package lang

func init() {
	register(&Action{Name: "frame", Positional: "string|int", Example: `{"frame": "iframe#pay"}`,
		Params: []Param{
			{Name: "list", Type: "bool", Doc: "list the page's frames instead of switching"},
			{Name: "selector", Type: "string", Doc: "the iframe element's ref from a snapshot, or its CSS selector (in the current frame)"},
			{Name: "index", Type: "int", Doc: "the Nth child frame of the current frame (from 0)"},
			{Name: "name", Type: "string", Doc: "the child frame's name"},
			{Name: "frameId", Type: "string", Doc: "a frame id from the listing"},
			{Name: "url", Type: "string", Doc: "part of the frame's URL (any frame of the page)"},
		},
		Doc: "switch the frame later steps run in (\"top\" returns to the page), or list frames; cross-origin frames work too"})
}
