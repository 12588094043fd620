package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// TestTabHintsAreTypedSteps: every error that tells the agent to list,
// switch or open tabs names the steps as typed suggestions, so a frontend
// writes them in its own syntax, and a JSON command gets them as JSON
// steps; no step's camelCase name is left in the prose.
func TestTabHintsAreTypedSteps(t *testing.T) {
	mark := func(s suggest.Step) string { return "<" + s.Name + ">" }
	cases := []struct {
		name  string
		err   error
		steps []string
	}{
		{"tab closed during a step", cdpconn.TabGone(&ProtocolError{Method: "Runtime.evaluate", Message: "Session with given id not found"}), []string{"listTabs", "switchTab", "openTab"}},
		{"unknown alias", &ConnectionError{Endpoint: "127.0.0.1:9222", Err: &unknownTabError{ref: "t9", hint: suggest.New("open one with %s", OpenTab)}}, []string{"openTab"}},
		{"tab not found", &ConnectionError{Endpoint: "127.0.0.1:9222", Err: fmt.Errorf("tab t3 (ABC): %w", ErrTabNotFound)}, []string{"listTabs", "openTab"}},
		{"pool tab gone", &ConnectionError{Endpoint: "wss://pool.example/", Err: &TabGoneError{Alias: "t3", TargetID: "ABC"}}, []string{"openTab"}},
		{"connection lost", &ConnLostError{Endpoint: "127.0.0.1:9222", Cause: "EOF"}, []string{"openTab"}},
		{"pool connection lost", &ConnLostError{Endpoint: "wss://pool.example/", Cause: "EOF", Pool: true}, []string{"openTab"}},
		{"point outside the viewport", Errorf(KindElementNotFound, "no element at (5000, 5000)").WithAdvice(suggest.New("use %s", getBoxStep)), []string{"getBox"}},
	}
	for _, c := range cases {
		text := AdviceIn(c.err, mark)
		for _, s := range c.steps {
			if !strings.Contains(text, "<"+s+">") {
				t.Errorf("%s: %s is not a typed step in %q", c.name, s, text)
			}
			if strings.Contains(strings.ReplaceAll(text, "<"+s+">", ""), s) {
				t.Errorf("%s: %s is left in the prose of %q", c.name, s, text)
			}
			if !strings.Contains(c.err.Error(), `{"`+s+`":`) {
				t.Errorf("%s: the JSON text does not write %s as a JSON step: %q", c.name, s, c.err.Error())
			}
		}
	}
}
