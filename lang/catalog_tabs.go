package lang

var connParams = []Param{
	{Name: "host", Type: "string", Doc: "Chrome debugging host (default 127.0.0.1)"},
	{Name: "port", Type: "int", Doc: "Chrome debugging port (default 9222)"},
	{Name: "endpoint", Type: "string", Doc: "remote browser endpoint: ws://… or http://host:port"},
	{Name: "headless", Type: "bool", Doc: "launch Chrome headless when it has to be launched"},
}

func init() {
	register(
		&Action{Name: "chromeStatus", NoTab: true,
			Params: append([]Param{{Name: "autoLaunch", Type: "bool", Doc: "launch Chrome when none answers (default true)"}}, connParams...),
			Doc:    "report whether Chrome runs (launching it if needed), its version and tabs"},
		&Action{Name: "openTab", Aliases: []string{"newTab"}, Positional: "string", OpensTab: true, Visual: true,
			Params: append([]Param{
				{Name: "url", Type: "string", Doc: "URL to open"},
				{Name: "waitUntil", Type: "string", Doc: "commit | domcontentloaded | load | networkidle"},
			}, connParams...),
			Doc: "open a new tab (optionally at a URL) and make it the current tab"},
		&Action{Name: "connectTab", Aliases: []string{"switchTab"}, Positional: "string", OpensTab: true, Visual: true,
			Params: append([]Param{
				{Name: "tab", Type: "string", Doc: "tab alias such as t2"},
				{Name: "targetId", Type: "string", Doc: "CDP target id"},
				{Name: "url", Type: "string", Doc: "regular expression matched against open tabs' URLs"},
			}, connParams...),
			Doc: "attach to an existing tab by alias, target id or URL regex and make it current"},
		&Action{Name: "closeTab", Positional: "string", NoTab: true,
			Params: []Param{{Name: "tab", Type: "string", Doc: "alias or target id (default: the current tab)"}},
			Doc:    "close a tab and forget its alias"},
		&Action{Name: "listTabs", NoTab: true,
			Params: connParams[:3],
			Doc:    "list open tabs with their aliases"},
	)
}
