package mcpserver

import (
	"context"
	"fmt"
	"sync"

	"github.com/cdp-skill/cdp-skill/runtime"
)

// tabsTool lowers list, open and close to the listTabs, openTab and
// closeTab steps.
func (s *server) tabsTool(ctx context.Context, c *callInfo, args map[string]any) *runtime.Output {
	if err := onlyKeys("tabs", args, "action", "url", "tab", "keep"); err != nil {
		return validation(err.Error())
	}
	action, err := argString("tabs", args, "action")
	url, err2 := argString("tabs", args, "url")
	tab, err3 := argString("tabs", args, "tab")
	keep, err4 := argBool("tabs", args, "keep")
	for _, e := range []error{err, err2, err3, err4} {
		if e != nil {
			return validation(e.Error())
		}
	}
	cmd := map[string]any{"capture": "compact"}
	switch action {
	case "list":
		cmd["steps"] = []any{map[string]any{"listTabs": true}}
	case "open":
		step := map[string]any{"openTab": true}
		if url != "" {
			step["openTab"] = url
		}
		cmd["steps"] = []any{step}
	case "close":
		if tab == "" {
			return validation(`tabs close needs "tab": the alias ("t1") or target id of the tab to close; {"action":"list"} shows them`)
		}
		cmd["steps"] = []any{map[string]any{"closeTab": tab}}
	default:
		return validation(fmt.Sprintf(`tabs "action" must be list, open or close, not %q`, action))
	}
	out := s.run(ctx, c, mustJSON(cmd), keep)
	if action == "close" && out.OK() {
		s.tabs.forget(tab)
	}
	return out
}

// sessionTabs are the tabs each session opened, to close when it ends.
type sessionTabs struct {
	mu   sync.Mutex
	open map[string][]string // by session id: tabs to close
}

func newSessionTabs() *sessionTabs { return &sessionTabs{open: map[string][]string{}} }

// add records a tab the session opened; a kept one is not recorded.
func (t *sessionTabs) add(session, tab string, keep bool) {
	if keep {
		return
	}
	t.mu.Lock()
	t.open[session] = append(t.open[session], tab)
	t.mu.Unlock()
}

// forget drops a tab closed by a call.
func (t *sessionTabs) forget(tab string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for s, list := range t.open {
		var kept []string
		for _, x := range list {
			if x != tab {
				kept = append(kept, x)
			}
		}
		t.open[s] = kept
	}
}

// closeSession closes the tabs the session opened and did not keep.
func (t *sessionTabs) closeSession(ctx context.Context, s *server, session string) {
	t.mu.Lock()
	list := t.open[session]
	delete(t.open, session)
	t.mu.Unlock()
	if s.host.KeepTabs {
		return
	}
	for _, tab := range list {
		runtime.RunJSON(ctx, mustJSON(map[string]any{"steps": []any{map[string]any{"closeTab": tab}}}), s.host.Options(s.pool))
	}
}
