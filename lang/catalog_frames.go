package lang

// FrameOptions are frame's parameters.
type FrameOptions struct {
	List     bool   `step:"list" doc:"list the page's frames instead of switching"`
	Selector string `step:"selector" doc:"the iframe element's ref from a snapshot, or its CSS selector (in the current frame)" example:"\"iframe#pay\""`
	Index    *int   `step:"index" doc:"the Nth child frame of the current frame (from 0)" example:"0"`
	Name     string `step:"name" doc:"the child frame's name" example:"\"checkout\""`
	FrameID  string `step:"frameId" doc:"a frame id from the listing" example:"\"A1B2…\""`
	URL      string `step:"url" doc:"part of the frame's URL (any frame of the page)" example:"\"/pay\""`
}

func init() {
	register(&Action{Name: "frame", Positional: "string|int", Options: FrameOptions{}, Example: `{"frame": "iframe#pay"}`,
		Doc: "switch the frame the rest of the command runs in (\"top\" returns to the page; every command starts in the top document), or list frames; cross-origin frames work too"})
}
