package chrome

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// Crash records a Chrome that cdp-skill launched and that died without
// `cdp-skill chrome stop` (a crash, or killed from outside). The next
// launch on the port keeps its log and lists the tabs it took along.
type Crash struct {
	PID     int    `json:"pid"`
	Port    int    `json:"port"`
	Started string `json:"started"`
	// Noticed is when a command found it gone.
	Noticed string `json:"noticed"`
	// Log is the dead Chrome's log, kept under a new name.
	Log string `json:"log,omitempty"`
	// Tabs are the aliases registered on the port when it died.
	Tabs []string `json:"tabs,omitempty"`
}

// Message tells the agent what happened and what was lost.
func (c *Crash) Message() string {
	lost := "no registered tabs"
	if len(c.Tabs) > 0 {
		lost = "its tabs " + strings.Join(c.Tabs, ", ")
	}
	msg := fmt.Sprintf("Chrome on port %d (pid %d, started %s) died without `cdp-skill chrome stop` and was relaunched; %s and their page state are gone", c.Port, c.PID, c.Started, lost)
	if c.Log != "" {
		msg += "; its log is kept at " + c.Log
	}
	return msg
}

func crashFile(port int) (string, error) {
	return state.Path("chrome-" + strconv.Itoa(port) + ".crash.json")
}

var (
	noticedMu sync.Mutex
	noticed   []*Crash
)

// TakeNoticed returns the crashes this process noticed (and relaunched
// after) since the last call.
func TakeNoticed() []*Crash {
	noticedMu.Lock()
	defer noticedMu.Unlock()
	taken := noticed
	noticed = nil
	return taken
}

// LastCrash returns the last crash recorded for port, if any.
func LastCrash(port int) *Crash {
	p, err := crashFile(port)
	if err != nil {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var c Crash
	if json.Unmarshal(data, &c) != nil {
		return nil
	}
	return &c
}

// noteCrash runs before a launch, under the port's launch lock: when the
// Chrome recorded for port is gone although nobody stopped it, it keeps the
// log, records the crash with the tabs it took along, and removes the stale
// pidfile.
func noteCrash(port int) *Crash {
	proc, alive := Launched(port)
	if proc == nil || alive || proc.Port != port {
		return nil
	}
	c := &Crash{PID: proc.PID, Port: port, Started: proc.Started, Noticed: time.Now().UTC().Format(time.RFC3339)}
	logPath := filepath.Join(ProfileDir(port), "chrome.log")
	kept := filepath.Join(ProfileDir(port), "chrome.crashed-"+time.Now().UTC().Format("20060102T150405Z")+".log")
	if os.Rename(logPath, kept) == nil {
		c.Log = kept
	}
	if reg, err := state.OpenRegistry(); err == nil {
		if tabs, err := reg.List(); err == nil {
			for _, t := range tabs {
				if t.Endpoint == "" && t.Port == port {
					c.Tabs = append(c.Tabs, t.Alias)
				}
			}
		}
	}
	sort.Slice(c.Tabs, func(i, j int) bool { return aliasLess(c.Tabs[i], c.Tabs[j]) })
	if p, err := crashFile(port); err == nil {
		data, _ := json.MarshalIndent(c, "", "  ")
		state.WriteFileAtomic(p, data, 0o600)
	}
	if p, err := pidFile(port); err == nil {
		os.Remove(p)
	}
	noticedMu.Lock()
	noticed = append(noticed, c)
	noticedMu.Unlock()
	return c
}

// aliasLess orders t2 before t10.
func aliasLess(a, b string) bool {
	na, ea := strconv.Atoi(strings.TrimPrefix(a, "t"))
	nb, eb := strconv.Atoi(strings.TrimPrefix(b, "t"))
	if ea == nil && eb == nil {
		return na < nb
	}
	return a < b
}
