package mcpserver

import (
	"slices"

	"github.com/cdp-skill/cdp-skill/lang"
)

// stepTool is a tool that runs a list of its own steps: the permission a
// host grants by the tool's name.
type stepTool struct {
	name, title, doc string
	actions          []string
	hooks            bool // accepts the JavaScript hooks readyWhen, settledWhen, observe
	readOnly         bool
	destructive      bool
}

// Observation reads the page as it is now (waiting is interaction's);
// files it writes (screenshot, pdf) stay under the output directory.
var observeActions = []string{"snapshot", "snapshotSearch", "query", "queryAll", "extract", "getDom", "getBox", "elementsAt",
	"inspect", "formState", "validate", "assert", "console", "screenshot", "pdf", "readSiteProfile", "chromeStatus"}

// Interaction acts as a person would, with declarative waits only.
var interactActions = []string{"goto", "back", "forward", "reload", "click", "fill", "type", "press", "selectOption", "check",
	"uncheck", "focus", "hover", "drag", "scroll", "submit", "upload", "dialog", "viewport", "geolocation", "wait", "sleep",
	"frame", "waitForDownload"}

// Evaluation runs page JavaScript; page JavaScript can click and read
// anything, so the tool also takes every observation and interaction step,
// with the hooks.
var evaluateOwn = []string{"pageFunction", "poll", "pipeline"}

// Network and storage reach past the page: request routing, cookies,
// storage state, HAR files, site profiles.
var networkActions = []string{"route", "cookies", "storageState", "har", "network", "waitForResponse", "writeSiteProfile"}

func union(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, a := range l {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

var stepTools = []*stepTool{{
	name: "observe", title: "Observe the page", readOnly: true,
	actions: observeActions,
	doc:     `Read a tab without changing it: {"tab":"t1","steps":[{"snapshot":true}]}; also {"extract":"#results"}, {"query":{"role":"button"}}. A screenshot step answers with the image.`,
}, {
	name: "interact", title: "Interact with the page", destructive: true,
	actions: interactActions,
	doc:     `Act as a user, steps in order: {"tab":"t1","steps":[{"fill":{"label":"Email","value":"a@b.c"}},{"click":"s1e4"}]}. Answers what changed and the viewport snapshot with refs; no image unless "capture":"full". JavaScript hooks are evaluate's.`,
}, {
	name: "evaluate", title: "Run page JavaScript", destructive: true, hooks: true,
	actions: union(evaluateOwn, observeActions, interactActions),
	doc:     `Run page JavaScript: {"tab":"t1","steps":[{"pageFunction":"document.title"}]}; also every observe and interact step, with the hooks readyWhen, settledWhen, observe: {"click":{"selector":"#go","settledWhen":"!document.querySelector('.spinner')"}}.`,
}, {
	name: "network_storage", title: "Network and storage", destructive: true,
	actions: networkActions,
	doc:     `Requests, cookies, storage, site profiles: {"tab":"t1","steps":[{"network":{"failed":true}}]}; also {"cookies":{"get":true}}, {"route":{"url":"*/api/*","fulfill":{"body":"[]"}}}.`,
}}

// toolOf names the step tool that takes an action, for an error that
// points the agent to it.
func toolOf(action string) string {
	for _, t := range stepTools {
		if slices.Contains(t.actions, action) && t.name != "evaluate" {
			return t.name
		}
	}
	switch action {
	case "openTab", "closeTab", "listTabs", "chromeStatus", "connectTab":
		return "tabs"
	case "recipe":
		return "run_recipe"
	}
	return "evaluate"
}

// briefActions are described by name and keys only in the tool list, to
// keep it small: rarely used, many keys (cdp-skill help STEP has them all).
var briefActions = []string{"pdf", "elementsAt", "inspect", "getBox", "getDom", "geolocation", "har", "storageState", "formState", "validate", "viewport", "chromeStatus", "readSiteProfile", "writeSiteProfile", "cookies", "route", "waitForResponse", "hover", "scroll"}

func (t *stepTool) schema() map[string]any {
	opts := lang.ToolSchemaOptions{Actions: t.actions, Hooks: t.hooks, TabRequired: true, Brief: briefActions}
	if t.hooks { // the other tools' steps, described there
		opts.Loose = union(observeActions, interactActions)
	}
	return lang.ToolSchema(opts)
}
