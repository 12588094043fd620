package lang

// Connection says which Chrome to talk to.
type Connection struct {
	Host     string `step:"host" doc:"Chrome debugging host (default 127.0.0.1)" example:"\"127.0.0.1\""`
	Port     int    `step:"port" doc:"Chrome debugging port (default 9222)" example:"9333"`
	Endpoint string `step:"endpoint" doc:"remote browser endpoint: ws://… or http://host:port" example:"\"http://10.0.0.5:9222\""`
	Headless *bool  `step:"headless" doc:"launch Chrome headless when it has to be launched"`
}

// ConnectionFields returns the connection options of an options struct.
func (c *Connection) ConnectionFields() *Connection { return c }

// ChromeStatusOptions are chromeStatus's parameters.
type ChromeStatusOptions struct {
	AutoLaunch bool `step:"autoLaunch" doc:"launch Chrome when none answers" default:"true"`
	Connection
}

// OpenTabOptions are openTab's parameters.
type OpenTabOptions struct {
	URL string `step:"url" doc:"URL to open" example:"\"https://example.com\""`
	Loading
	Connection
}

// ConnectTabOptions are connectTab's parameters.
type ConnectTabOptions struct {
	Tab      string `step:"tab" doc:"tab alias such as t2" example:"\"t2\""`
	TargetID string `step:"targetId" doc:"CDP target id" example:"\"9A1B…\""`
	URL      string `step:"url" doc:"regular expression matched against open tabs' URLs" example:"\"github\\\\.com\""`
	Connection
}

// CloseTabOptions are closeTab's parameters.
type CloseTabOptions struct {
	Tab string `step:"tab" doc:"alias or target id (default: the current tab)" example:"\"t2\""`
}

// ListTabsOptions are listTabs's parameters.
type ListTabsOptions struct {
	Connection `keys:"host port endpoint"`
}

func init() {
	register(
		&Action{Name: "chromeStatus", NoTab: true, Options: ChromeStatusOptions{}, Example: `{"chromeStatus": true}`,
			Doc: "report whether Chrome runs (launching it if needed), its version and tabs"},
		&Action{Name: "openTab", Aliases: []string{"newTab"}, Positional: "string", OpensTab: true, Visual: true, Options: OpenTabOptions{},
			Example: `{"openTab": "https://example.com"}`,
			Doc:     "open a new tab (optionally at a URL) and make it the current tab"},
		&Action{Name: "connectTab", AdoptsTab: true, Aliases: []string{"switchTab"}, Positional: "string", OpensTab: true, Visual: true, Options: ConnectTabOptions{},
			Example: `{"connectTab": "t2"}`,
			Doc:     "attach to an existing tab by alias, target id or URL regex and make it current"},
		&Action{Name: "closeTab", Positional: "string", NoTab: true, Options: CloseTabOptions{}, Example: `{"closeTab": "t2"}`,
			Doc: "close a tab and forget its alias"},
		&Action{Name: "listTabs", NoTab: true, Options: ListTabsOptions{}, Example: `{"listTabs": true}`,
			Doc: "list open tabs with their aliases"},
	)
}
