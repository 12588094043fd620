// Package keeper answers the JavaScript dialogs pages open while no
// cdp-skill command is connected.
//
// Chrome lets only a DevTools session that had the Page domain enabled when
// a dialog opened answer it: a dialog a timer opens between two commands
// would freeze the tab until a navigation, and the next command could
// neither read nor answer it. The keeper is a small process beside the
// Chrome cdp-skill drives (one per port, started by the first command,
// ending with Chrome): it keeps a session with Page enabled on every page,
// and when a dialog opens on a tab no command holds, it answers it by the
// default policy (accept; a prompt gets its default text) and records it.
// The next command on the tab reports it in its first step's `dialogs`,
// marked betweenCommands. When a command holds the tab, the command's own
// session answers by its policy and the keeper stays out of the way.
package keeper

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// Timing of the keeper.
const (
	// chromeWait is how long a keeper waits for Chrome to come up.
	chromeWait = 30 * time.Second
	// commandGrace is how long a dialog on a tab a command holds may stay
	// open before the keeper answers it anyway (the command's session did
	// not see it open).
	commandGrace = 1500 * time.Millisecond
	// maxKept bounds the dialogs recorded per tab between two commands.
	maxKept = 20
)

func lockPath(port int) (string, error) {
	return state.Path("keeper-" + strconv.Itoa(port) + ".lock")
}

// Ensure starts a keeper for the local Chrome on ep unless one runs: exe
// and args run it detached (the cdp-skill binary's hidden keep-dialogs
// command). It never fails a command: a keeper that cannot start only
// means dialogs between commands block the tab.
func Ensure(ep chrome.Endpoint, exe string, args ...string) {
	ep = ep.Normalize()
	if !ep.Local() {
		return
	}
	p, err := lockPath(ep.Port)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	unlock, err := state.Lock(ctx, p)
	if err != nil {
		return // a keeper holds it
	}
	unlock()
	cmd := exec.Command(exe, args...)
	chrome.Detach(cmd)
	if cmd.Start() == nil {
		go cmd.Wait()
	}
}

// Serve is the keeper process: it takes the port's keeper lock (exiting at
// once when another keeper has it), waits for Chrome, and answers dialogs
// until Chrome goes away or ctx ends.
func Serve(ctx context.Context, ep chrome.Endpoint) error {
	ep = ep.Normalize()
	p, err := lockPath(ep.Port)
	if err != nil {
		return err
	}
	lctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	unlock, err := state.Lock(lctx, p)
	cancel()
	if err != nil {
		return nil // another keeper runs
	}
	defer unlock()
	return Run(ctx, ep)
}

// Run answers dialogs on ep's pages until Chrome goes away or ctx ends.
func Run(ctx context.Context, ep chrome.Endpoint) error {
	ws, err := waitChrome(ctx, ep)
	if err != nil {
		return err
	}
	conn, err := browser.Dial(ctx, ws)
	if err != nil {
		return err
	}
	defer conn.Close()
	k := &keeper{conn: conn, attached: map[target.ID]bool{}}
	bs := conn.Browser()
	created, stopC := bs.Subscribe("Target.targetCreated")
	defer stopC()
	changed, stopI := bs.Subscribe("Target.targetInfoChanged")
	defer stopI()
	if _, err := cdp.Call(ctx, bs, target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err != nil {
		return fmt.Errorf("discover targets: %w", err)
	}
	for {
		var raw jsonv2.Value
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case v, open := <-created:
			raw, ok = v, open
		case v, open := <-changed:
			raw, ok = v, open
		}
		if !ok {
			return nil // Chrome went away
		}
		var ev struct {
			TargetInfo *target.Info `json:"targetInfo"`
		}
		if jsonv2.Unmarshal(raw, &ev) == nil && ev.TargetInfo != nil && ev.TargetInfo.Type == "page" {
			k.watch(ctx, ev.TargetInfo.TargetID)
		}
	}
}

func waitChrome(ctx context.Context, ep chrome.Endpoint) (string, error) {
	deadline := time.Now().Add(chromeWait)
	for {
		v, err := chrome.Version(ctx, ep)
		if err == nil {
			return v.WebSocketDebuggerURL, nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no Chrome came up at %s: %w", ep, err)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
}

type keeper struct {
	conn     *browser.Conn
	mu       sync.Mutex
	attached map[target.ID]bool
}

// watch attaches to a page once and answers its dialogs.
func (k *keeper) watch(ctx context.Context, id target.ID) {
	k.mu.Lock()
	if k.attached[id] {
		k.mu.Unlock()
		return
	}
	k.attached[id] = true
	k.mu.Unlock()
	go func() {
		res, err := cdp.Call(ctx, k.conn.Browser(), target.AttachToTarget, target.AttachToTargetParams{TargetID: id, Flatten: ptr(true)})
		if err != nil {
			return
		}
		s := k.conn.Session(res.SessionID)
		opening, stopO := s.Subscribe(page.JavascriptDialogOpening.Method)
		defer stopO()
		closed, stopX := s.Subscribe(page.JavascriptDialogClosed.Method)
		defer stopX()
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		cdp.Call(ectx, s, page.Enable, page.EnableParams{})
		cancel()
		var pace pacer
		for raw := range opening {
			var ev page.EventJavascriptDialogOpening
			if jsonv2.Unmarshal(raw, &ev) != nil {
				continue
			}
			answer(ctx, s, id, ev, closed, &pace)
		}
	}()
}

// answer answers one dialog unless the command that holds the tab does, or
// the tab is not one of this state dir's (agents with another state dir
// have their own keeper, which reports to them).
func answer(ctx context.Context, s *browser.Session, id target.ID, ev page.EventJavascriptDialogOpening, closed <-chan jsonv2.Value, pace *pacer) {
	if !ours(id) {
		return
	}
	unlock := tryTab(ctx, id)
	if unlock == nil {
		// A command holds the tab: its session answers by its policy.
		t := time.NewTimer(commandGrace)
		defer t.Stop()
		select {
		case <-closed:
			return
		case <-t.C:
		case <-ctx.Done():
			return
		}
	} else {
		defer unlock()
	}
	storm := pace.wait(ctx)
	params := page.HandleJavaScriptDialogParams{Accept: true}
	if ev.Type == page.DialogTypePrompt {
		params.PromptText = ev.DefaultPrompt
	}
	actx, cancel := context.WithTimeout(ctx, 5*time.Second)
	_, err := cdp.Call(actx, s, page.HandleJavaScriptDialog, params)
	cancel()
	if err != nil {
		return
	}
	d := browser.Dialog{Type: string(ev.Type), Message: ev.Message, Default: ev.DefaultPrompt, Action: "accepted",
		PromptText: params.PromptText, BetweenCommands: true}
	browser.RecordKeptDialog(id, d, storm)
}

// ours reports whether this state dir's tab registry knows the tab.
func ours(id target.ID) bool {
	reg, err := state.OpenRegistry()
	if err != nil {
		return false
	}
	return reg.AliasOf(string(id)) != ""
}

// tryTab takes the tab's command lock when no command holds it.
func tryTab(ctx context.Context, id target.ID) func() {
	if !state.IsTargetID(string(id)) {
		return nil
	}
	p, err := state.Path("locks", string(id)+".lock")
	if err != nil {
		return nil
	}
	lctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	unlock, err := state.Lock(lctx, p)
	if err != nil {
		return nil
	}
	return unlock
}

// pacer slows the answers of a dialog storm (a page that opens dialog
// after dialog) to one per 100 ms.
type pacer struct {
	recent []time.Time
}

func (p *pacer) wait(ctx context.Context) bool {
	now := time.Now()
	p.recent = append(p.recent, now)
	if len(p.recent) > maxKept {
		p.recent = p.recent[1:]
	}
	if len(p.recent) < maxKept || now.Sub(p.recent[0]) > 5*time.Second {
		return false
	}
	select {
	case <-time.After(100 * time.Millisecond):
	case <-ctx.Done():
	}
	return true
}

func ptr[T any](v T) *T { return &v }
