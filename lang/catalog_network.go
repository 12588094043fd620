package lang

import (
	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

// URLMatch picks requests by URL.
type URLMatch struct {
	URL      string `step:"url" doc:"only URLs containing this text (a * makes it a glob: \"*/api/*\")" example:"\"/api/\""`
	URLRegex string `step:"urlRegex" doc:"only URLs matching this regular expression (RE2)" example:"\"/api/items/[0-9]+\""`
}

// NetworkOptions are network's parameters.
type NetworkOptions struct {
	URLMatch
	Type   stepopt.Strings `step:"type" type:"string|list" doc:"only these resource types: document, script, xhr, fetch, stylesheet, image, font, media, websocket, other" example:"[\"xhr\", \"fetch\"]"`
	Status stepopt.Status  `step:"status" type:"int|string" doc:"only this status (404) or class (\"4xx\")" example:"\"4xx\""`
	Failed bool            `step:"failed" doc:"only failed requests (status ≥ 400 or a network error)"`
	Limit  int             `step:"limit" doc:"most recent requests to list; a long list also goes to a file" default:"100"`
	Clear  bool            `step:"clear" doc:"forget the requests recorded so far (after listing them)"`
}

// WaitForResponseOptions are waitForResponse's parameters.
type WaitForResponseOptions struct {
	URLMatch `docs:"url=URL substring or glob (the positional value);urlRegex=URL regular expression (RE2)"`
	Status   stepopt.Status    `step:"status" type:"int|string" doc:"only this status (200) or class (\"2xx\")" example:"200"`
	Method   string            `step:"method" doc:"only this HTTP method" example:"\"POST\""`
	Body     stepopt.BodyLimit `step:"body" type:"bool|int" doc:"return the response body: true = first 4000 bytes, or a byte limit" example:"true"`
}

// RouteOptions are route's parameters.
type RouteOptions struct {
	URLMatch `docs:"url=requests whose URL contains this text (a * makes it a glob); omit for every request;urlRegex=requests whose URL matches this regular expression"`
	Type     stepopt.Strings  `step:"type" type:"string|list" doc:"only these resource types" example:"\"image\""`
	Method   string           `step:"method" doc:"only this HTTP method" example:"\"GET\""`
	Fulfill  *stepopt.Fulfill `step:"fulfill" type:"dict" doc:"answer without the network: {status, headers, body | json | file, contentType}; file is read from the working directory or CDP_SKILL_UPLOAD_DIRS" example:"{\"json\": []}"`
	Abort    *stepopt.Abort   `step:"abort" type:"bool|string" doc:"fail the request: true (BlockedByClient) or a reason (Failed, ConnectionRefused, TimedOut, …)" example:"true"`
	Headers  stepopt.Headers  `step:"headers" type:"dict" doc:"send the request on with these request headers set (\"\" removes one)" example:"{\"X-Test\": \"1\"}"`
	// Handler stays a Starlark value: a function cannot be data.
	Handler starlark.Callable `step:"handler" type:"any" doc:"recipes: a function(request) deciding per request; returns None (go on), \"abort\", or a dict like fulfill (or {headers}, {abort})"`
	Times   int               `step:"times" doc:"handle only the first n matching requests (0: every one)" example:"1"`
	Clear   bool              `step:"clear" doc:"remove every route of the tab"`
}

// HAROptions are har's parameters.
type HAROptions struct {
	Path    string `step:"path" doc:"the .har file, in the output directory (the positional value)" example:"\"traffic.har\""`
	Secrets bool   `step:"secrets" doc:"keep cookie, authorization and token values (redacted by default)"`
}

func init() {
	register(
		&Action{Name: "network", SizesOwnOutput: true, Options: NetworkOptions{},
			Example: `{"network": {"failed": true}}`,
			Doc:     "the tab's requests during this command (a long-lived MCP server: since the last clear): method, url, status, type, size, ms, failure"},
		&Action{Name: "waitForResponse", Positional: "string", Options: WaitForResponseOptions{},
			Example: `{"waitForResponse": "/api/items"}`,
			Doc:     "wait for a response to a matching URL during this command (earlier steps' included, each returned once): status, and optionally its body"},
		&Action{Name: "route", Options: RouteOptions{},
			Example: `{"route": {"url": "/api/items", "fulfill": {"json": []}}}`,
			Doc:     "mock, block or change the tab's matching requests for the rest of this command (the newest matching route wins)"},
		&Action{Name: "har", Positional: "string", Options: HAROptions{},
			Example: `{"har": "traffic.har"}`,
			Doc:     "record this command's requests (from its start to its end) to a HAR 1.2 file"},
		&Action{Name: "waitForDownload", ReportsDownloads: true,
			Example: `{"waitForDownload": true}`,
			Doc:     "wait for a download the page began during this command (not one an earlier waitForDownload returned) to complete: {path, suggestedFilename, size}"},
	)
}
