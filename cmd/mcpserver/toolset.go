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

// Observation reads the page; files it writes (screenshot, pdf) stay under
// the output directory.
var observeActions = []string{"snapshot", "snapshotSearch", "query", "queryAll", "extract", "getDom", "getBox", "elementsAt",
	"inspect", "formState", "validate", "assert", "console", "screenshot", "pdf", "frame", "wait", "sleep", "readSiteProfile", "chromeStatus"}

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
	doc:     `Read a tab without changing it: {"tab":"t1","steps":[{"snapshot":true}]}, {"extract":"#results"}, {"query":{"role":"button"}}, {"snapshotSearch":{"text":"Total"}}. A screenshot step answers with the image.`,
}, {
	name: "interact", title: "Interact with the page", destructive: true,
	actions: interactActions,
	doc:     `Act as a user in a tab, steps in order: {"tab":"t1","steps":[{"fill":{"label":"Email","value":"a@b.c"}},{"click":"s1e4"}]}. The answer carries the page context, what changed and the viewport snapshot with refs; no image unless "capture":"full". Page JavaScript (readyWhen, settledWhen, observe hooks) is the evaluate tool's.`,
}, {
	name: "evaluate", title: "Run page JavaScript", destructive: true, hooks: true,
	actions: union(evaluateOwn, observeActions, interactActions),
	doc:     `Run JavaScript in a tab: {"tab":"t1","steps":[{"pageFunction":"document.title"}]}, {"poll":"() => document.querySelector('#done')"}. Also takes the observe and interact steps with the hooks readyWhen, settledWhen and observe: {"click":{"selector":"#go","settledWhen":"() => !document.querySelector('.spinner')"}}.`,
}, {
	name: "network_storage", title: "Network and storage", destructive: true,
	actions: networkActions,
	doc:     `Requests, cookies and storage of a tab: {"tab":"t1","steps":[{"network":{"failed":true}}]}, {"route":{"url":"*/api/*","fulfill":{"status":200,"body":"[]"}}}, {"cookies":{"get":true}}, {"storageState":{"save":"state.json"}}, {"har":"trace.har"}, {"writeSiteProfile":{"domain":"example.com","content":"# example.com"}}.`,
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

func (t *stepTool) schema() map[string]any {
	opts := lang.ToolSchemaOptions{Actions: t.actions, Hooks: t.hooks, TabRequired: true}
	if t.hooks { // the other tools' steps, described there
		opts.Loose = union(observeActions, interactActions)
	}
	return lang.ToolSchema(opts)
}
