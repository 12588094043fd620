package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Tab is one registry entry: the alias an agent uses and where the tab lives.
type Tab struct {
	Alias    string `json:"alias"`
	TargetID string `json:"targetId"`
	Host     string `json:"host,omitempty"`
	Port     int    `json:"port,omitempty"`
	// Endpoint is a remote browser endpoint (ws://… or http://…) when the tab
	// does not live on a local host:port.
	Endpoint string `json:"endpoint,omitempty"`
}

// registryFile is the on-disk shape of the registry.
type registryFile struct {
	NextID int            `json:"nextId"`
	Tabs   map[string]Tab `json:"tabs"`
	// unreadable are the aliases whose entries did not decode (reading
	// only): they are dropped, the others kept.
	unreadable []string
}

// UnmarshalJSON reads the registry entry by entry: an entry that is a
// plain string is a target id on the default host and port (the spec's
// older form, "t77": "<targetId>"), and one that decodes as neither is
// left out (recorded in unreadable) without losing the others.
func (f *registryFile) UnmarshalJSON(data []byte) error {
	var raw struct {
		NextID json.RawMessage            `json:"nextId"`
		Tabs   map[string]json.RawMessage `json:"tabs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if len(raw.NextID) > 0 && json.Unmarshal(raw.NextID, &f.NextID) != nil {
		f.unreadable = append(f.unreadable, "nextId")
	}
	f.Tabs = make(map[string]Tab, len(raw.Tabs))
	for alias, entry := range raw.Tabs {
		var id string
		if json.Unmarshal(entry, &id) == nil {
			f.Tabs[alias] = Tab{TargetID: id}
			continue
		}
		var t Tab
		if err := json.Unmarshal(entry, &t); err != nil {
			f.unreadable = append(f.unreadable, alias)
			continue
		}
		f.Tabs[alias] = t
	}
	return nil
}

// ErrUnknownTab is returned by Resolve for an alias that is not registered.
var ErrUnknownTab = errors.New("unknown tab")

var aliasPattern = lazyRegexp(`^t[0-9]+$`)

// IsAlias reports whether s has the shape of a tab alias (t1, t2, …).
func IsAlias(s string) bool { return aliasPattern().MatchString(s) }

// Registry maps tab aliases (t1, t2, …) to targets. Aliases are never
// reused: the counter only grows, and it is also kept in a file of its own
// (tabs.counter), so that a lost or corrupt tabs.json does not restart it.
type Registry struct {
	path string
	// recovered says how a corrupt registry was recovered ("" = it was not).
	recovered string
}

// OpenRegistry returns the registry stored in the state directory.
func OpenRegistry() (*Registry, error) {
	p, err := Path("tabs.json")
	if err != nil {
		return nil, err
	}
	return &Registry{path: p}, nil
}

// Recovered says how a corrupt tabs.json was recovered during this
// invocation ("" when it was not): the agent's aliases from before are
// gone, and the answer must say so.
func (r *Registry) Recovered() string { return r.recovered }

func (r *Registry) counterPath() string { return r.path[:len(r.path)-len(".json")] + ".counter" }

// readCounter returns the alias counter kept beside the registry (0 when
// missing or unreadable).
func (r *Registry) readCounter() int {
	data, err := readFileNoEscape(r.counterPath())
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

// read returns the registry. A file that does not parse, or whose entries
// are not tabs (an alias or target id of the wrong shape), is corrupt: what
// can be kept is kept, and the damage is recorded in r.recovered.
func (r *Registry) read() (registryFile, error) {
	f := registryFile{NextID: 1, Tabs: map[string]Tab{}}
	data, err := readFileNoEscape(r.path)
	if errors.Is(err, os.ErrNotExist) {
		f.NextID = max(f.NextID, r.readCounter())
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read tab registry: %w", err)
	}
	var problem string
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		problem = "it was empty"
	default:
		if err := json.Unmarshal(data, &f); err != nil {
			f = registryFile{NextID: 1, Tabs: map[string]Tab{}}
			problem = fmt.Sprintf("it did not parse: %v", err)
		}
	}
	if f.Tabs == nil {
		f.Tabs = map[string]Tab{}
	}
	var dropped []string
	for _, a := range f.unreadable {
		if a != "nextId" {
			dropped = append(dropped, fmt.Sprintf("%.20q", a))
		}
	}
	f.unreadable = nil
	for a, t := range f.Tabs {
		if !IsAlias(a) || !IsTargetID(t.TargetID) || !validWhere(t) {
			dropped = append(dropped, fmt.Sprintf("%.20q", a))
			delete(f.Tabs, a)
			continue
		}
		f.NextID = max(f.NextID, aliasNumber(a)+1)
	}
	if len(dropped) > 0 && problem == "" {
		sort.Strings(dropped)
		problem = fmt.Sprintf("entries %s did not name tabs and were dropped", strings.Join(dropped, ", "))
	}
	f.NextID = max(f.NextID, 1, r.readCounter())
	if problem != "" && r.recovered == "" {
		r.recovered = fmt.Sprintf("the tab registry %s was corrupt (%s); it was recovered with %d tab(s) and new aliases continue from t%d, so an alias from before may be unknown: listTabs shows the open tabs, and connectTab with a targetId gives one an alias again", r.path, problem, len(f.Tabs), f.NextID)
	}
	return f, nil
}

func (r *Registry) update(ctx context.Context, fn func(*registryFile) error) error {
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	unlock, err := Lock(lctx, r.path+".lock")
	if err != nil {
		return fmt.Errorf("tab registry: %w", err)
	}
	defer unlock()
	f, err := r.read()
	if err != nil {
		return err
	}
	if err := fn(&f); err != nil {
		return err
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode tab registry: %w", err)
	}
	// The counter first: a crash between the two writes may skip an alias,
	// never reuse one.
	if err := WriteFileAtomic(r.counterPath(), []byte(strconv.Itoa(f.NextID)+"\n"), 0o600); err != nil {
		return err
	}
	return WriteFileAtomic(r.path, data, 0o600)
}

// Register gives tab an alias, or returns the alias its target already has.
func (r *Registry) Register(ctx context.Context, tab Tab) (string, error) {
	var alias string
	err := r.update(ctx, func(f *registryFile) error {
		for a, t := range f.Tabs {
			if t.TargetID == tab.TargetID {
				alias = a
				return nil
			}
		}
		alias = "t" + strconv.Itoa(f.NextID)
		f.NextID++
		tab.Alias = alias
		f.Tabs[alias] = tab
		return nil
	})
	return alias, err
}

// Remove deletes the entry of alias; a missing alias is not an error.
func (r *Registry) Remove(ctx context.Context, alias string) error {
	return r.update(ctx, func(f *registryFile) error {
		delete(f.Tabs, alias)
		return nil
	})
}

// Lookup returns the entry of alias.
func (r *Registry) Lookup(alias string) (Tab, error) {
	f, err := r.read()
	if err != nil {
		return Tab{}, err
	}
	t, ok := f.Tabs[alias]
	if !ok {
		return Tab{}, fmt.Errorf("%w %q", ErrUnknownTab, alias)
	}
	t.Alias = alias
	return t, nil
}

// AliasOf returns the alias registered for targetID, or "".
func (r *Registry) AliasOf(targetID string) string {
	f, err := r.read()
	if err != nil {
		return ""
	}
	for a, t := range f.Tabs {
		if t.TargetID == targetID {
			return a
		}
	}
	return ""
}

// List returns every registered tab, ordered by alias number.
func (r *Registry) List() ([]Tab, error) {
	f, err := r.read()
	if err != nil {
		return nil, err
	}
	tabs := make([]Tab, 0, len(f.Tabs))
	for a, t := range f.Tabs {
		t.Alias = a
		tabs = append(tabs, t)
	}
	sort.Slice(tabs, func(i, j int) bool { return aliasNumber(tabs[i].Alias) < aliasNumber(tabs[j].Alias) })
	return tabs, nil
}

// validWhere says whether a tab's endpoint is one cdp-skill could have
// recorded: a port a Chrome can listen on without privileges (never 1, or
// another service's), a host name or address with nothing else in it, or
// a ws/http URL. A record saying otherwise was not written by cdp-skill
// and is not followed.
func validWhere(t Tab) bool {
	if t.Endpoint != "" {
		u, err := url.Parse(t.Endpoint)
		return err == nil && u.Host != "" && (u.Scheme == "ws" || u.Scheme == "wss" || u.Scheme == "http" || u.Scheme == "https")
	}
	if t.Port != 0 && (t.Port < 1024 || t.Port > 65535) {
		return false
	}
	return t.Host == "" || net.ParseIP(strings.Trim(t.Host, "[]")) != nil || endpointHost().MatchString(t.Host)
}

var endpointHost = lazyRegexp(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$`)

func aliasNumber(a string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(a, "t"))
	return n
}
