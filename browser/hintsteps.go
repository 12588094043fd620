package browser

import "github.com/cdp-skill/cdp-skill/browser/suggest"

// ListTabs, OpenTab and SwitchTab are the steps the hints of a tab that is
// gone or unknown suggest; each frontend writes them in its own syntax
// (list_tabs() in a recipe, {"listTabs":true} in a JSON command).
var (
	ListTabs  = suggest.Step{Name: "listTabs", Value: true}
	OpenTab   = suggest.Step{Name: "openTab", Value: true}
	SwitchTab = suggest.Step{Name: "switchTab", Value: "t…"}
)

// getBoxStep is the step that reads an element's box, for hints that need
// coordinates.
var getBoxStep = suggest.Step{Name: "getBox", Value: "…"}

// listOrOpenTab is the hint of a tab that is not open.
var listOrOpenTab = suggest.New("run %s to see the open tabs, or open a new one with %s", ListTabs, OpenTab)
