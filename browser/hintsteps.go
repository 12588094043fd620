package browser

import (
	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// ListTabs, OpenTab and SwitchTab are the steps the hints of a tab that is
// gone or unknown suggest (cdpconn.ListTabs, …).
var (
	ListTabs  = cdpconn.ListTabs
	OpenTab   = cdpconn.OpenTab
	SwitchTab = cdpconn.SwitchTab
)

// getBoxStep is the step that reads an element's box, for hints that need
// coordinates.
var getBoxStep = suggest.Step{Name: "getBox", Value: "…"}

// listOrOpenTab is the hint of a tab that is not open.
var listOrOpenTab = cdpconn.ListOrOpenTab
