package lang

func init() {
	register(
		&Action{Name: "network",
			Params: []Param{
				{Name: "url", Type: "string", Doc: "only URLs containing this text (a * makes it a glob: \"*/api/*\")"},
				{Name: "urlRegex", Type: "string", Doc: "only URLs matching this regular expression (RE2)"},
				{Name: "type", Type: "string|list", Doc: "only these resource types: document, script, xhr, fetch, stylesheet, image, font, media, websocket, other"},
				{Name: "status", Type: "int|string", Doc: "only this status (404) or class (\"4xx\")"},
				{Name: "failed", Type: "bool", Doc: "only failed requests (status ≥ 400 or a network error)"},
				{Name: "limit", Type: "int", Doc: "most recent requests to list (default 100); a long list also goes to a file"},
				{Name: "clear", Type: "bool", Doc: "forget the requests recorded so far (after listing them)"},
			},
			Doc: "the tab's requests during this command (a long-lived MCP server: since the last clear): method, url, status, type, size, ms, failure"},
		&Action{Name: "waitForResponse", Positional: "string",
			Params: []Param{
				{Name: "url", Type: "string", Doc: "URL substring or glob (the positional value)"},
				{Name: "urlRegex", Type: "string", Doc: "URL regular expression (RE2)"},
				{Name: "status", Type: "int|string", Doc: "only this status (200) or class (\"2xx\")"},
				{Name: "method", Type: "string", Doc: "only this HTTP method"},
				{Name: "body", Type: "bool|int", Doc: "return the response body: true = first 4000 bytes, or a byte limit"},
			},
			Doc: "wait for a response to a matching URL during this command (earlier steps' included, each returned once): status, and optionally its body"},
		&Action{Name: "route",
			Params: []Param{
				{Name: "url", Type: "string", Doc: "requests whose URL contains this text (a * makes it a glob); omit for every request"},
				{Name: "urlRegex", Type: "string", Doc: "requests whose URL matches this regular expression"},
				{Name: "type", Type: "string|list", Doc: "only these resource types"},
				{Name: "method", Type: "string", Doc: "only this HTTP method"},
				{Name: "fulfill", Type: "dict", Doc: "answer without the network: {status, headers, body | json | file, contentType}; file is read from the working directory or CDP_SKILL_UPLOAD_DIRS"},
				{Name: "abort", Type: "bool|string", Doc: "fail the request: true (BlockedByClient) or a reason (Failed, ConnectionRefused, TimedOut, …)"},
				{Name: "headers", Type: "dict", Doc: "send the request on with these request headers set (\"\" removes one)"},
				{Name: "handler", Type: "any", Doc: "recipes: a function(request) deciding per request; returns None (go on), \"abort\", or a dict like fulfill (or {headers}, {abort}); it runs beside the recipe, so decide from the request (its captured values are frozen) and call no actions"},
				{Name: "times", Type: "int", Doc: "handle only the first n matching requests"},
				{Name: "clear", Type: "bool", Doc: "remove every route of the tab"},
			},
			Doc: "mock, block or change the tab's matching requests for the rest of this command (the newest matching route wins)"},
		&Action{Name: "har", Positional: "string",
			Params: []Param{
				{Name: "path", Type: "string", Doc: "the .har file, in the output directory (the positional value)"},
				{Name: "secrets", Type: "bool", Doc: "keep cookie, authorization and token values (redacted by default)"},
			},
			Doc: "record this command's requests (from its start to its end) to a HAR 1.2 file"},
		&Action{Name: "waitForDownload",
			Doc: "wait for a download the page began during this command (not one an earlier waitForDownload returned) to complete: {path, suggestedFilename, size}"},
	)
}
