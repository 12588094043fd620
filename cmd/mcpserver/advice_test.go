package mcpserver

import (
	"testing"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

func TestToolSyntaxNamesTheToolAndItsArguments(t *testing.T) {
	cases := []struct {
		tab  string
		step suggest.Step
		want string
	}{
		{"t1", browser.Reload, `the interact tool with {"tab":"t1","steps":[{"reload":true}]}`},
		{"t1", browser.CloseTab, `the tabs tool with {"action":"close","tab":"t1"}`},
		{"t1", suggest.Step{Name: "closeTab", Value: "t2"}, `the tabs tool with {"action":"close","tab":"t2"}`},
		{"", suggest.Step{Name: "screenshot", Value: true}, `the observe tool with {"steps":[{"screenshot":true}]}`},
		{"t3", suggest.Step{Name: "fill", Value: suggest.Args{{Key: "ref", Value: "s1e4"}, {Key: "value", Value: "a<b"}}},
			`the interact tool with {"tab":"t3","steps":[{"fill":{"ref":"s1e4","value":"a<b"}}]}`},
	}
	for _, c := range cases {
		if got := toolSyntax(c.tab)(c.step); got != c.want {
			t.Errorf("%s on %q: got %s, want %s", c.step.JSON(), c.tab, got, c.want)
		}
	}
	// The closure keeps its tab: closing another tab does not change it.
	syntax := toolSyntax("t1")
	syntax(suggest.Step{Name: "closeTab", Value: "t9"})
	if got := syntax(browser.Reload); got != `the interact tool with {"tab":"t1","steps":[{"reload":true}]}` {
		t.Errorf("after another tab's close: %s", got)
	}
}
