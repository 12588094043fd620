package browser

import (
	"context"
	"fmt"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
)

// A key press can open a tab in this tab's window, which hides this one:
// a combo with Control, Alt or Meta that the page does not handle goes on
// to Chrome, which runs its own shortcut for it (Control+H opens the History
// page, Control+T a new tab), and Enter on a link that opens a new tab
// opens one. A hidden page draws no frames, so Chrome acknowledges no mouse
// move sent to it, and every later pointer action on the tab hangs until
// its timeout. A step that presses keys therefore watches for new tabs
// until it ends, and brings this tab back to the front when one opened.

// commandMods are the modifiers that make a key combo a possible browser
// shortcut: Alt, Control and Meta.
const commandMods Modifiers = 1 | 2 | 4

// tabWatch notices the tabs that open while a step presses keys.
type tabWatch struct {
	created <-chan jsonv2.Value
	stop    func()
	// combo is the last combo with a command modifier pressed, for the
	// note ("" when none).
	combo string
}

// watchTabs starts watching for new tabs (once per step; see EndStep) and
// remembers a combo that may be a browser shortcut. (Chrome announces new
// tabs once discovery is on, which every action's watch turns on; a press
// without one turns it on here.)
func (in *Input) watchTabs(ctx context.Context, c *KeyCombo) {
	if in.p.Browser == nil {
		return
	}
	var w *tabWatch
	in.state(func(h *heldInput) { w = h.tabs })
	if w == nil {
		in.p.discoverTargets(ctx)
		ch, stop := in.p.Browser.Session().Subscribe("Target.targetCreated")
		w = &tabWatch{created: ch, stop: stop}
		in.state(func(h *heldInput) { h.tabs = w })
	}
	if c == nil {
		return
	}
	var mods Modifiers
	for _, m := range c.ModKeys {
		bit, _ := in.modifierBit(m)
		mods |= bit
	}
	if mods&commandMods != 0 {
		in.state(func(h *heldInput) { w.combo = comboName(*c) })
	}
}

// frontAfterKeys brings this tab back to the front when a tab opened since
// the step began pressing keys, with a note when Chrome opened it for a
// shortcut the page did not handle; end also stops the watch.
func (in *Input) frontAfterKeys(ctx context.Context, end bool) {
	var w *tabWatch
	var combo string
	in.state(func(h *heldInput) {
		w = h.tabs
		if w != nil {
			combo = w.combo
		}
		if end {
			h.tabs = nil
		}
	})
	if w == nil {
		return
	}
	if end {
		defer w.stop()
	}
	var opened, byChrome []string
	for {
		var raw jsonv2.Value
		select {
		case raw = <-w.created:
		default:
		}
		if raw == nil {
			break
		}
		var ev target.EventTargetCreated
		if decode(raw, &ev) != nil || ev.TargetInfo == nil {
			continue
		}
		if ti := ev.TargetInfo; ti.Type == "page" && ti.TargetID != in.p.TargetID {
			opened = append(opened, ti.URL)
			if ti.OpenerID == "" && combo != "" {
				byChrome = append(byChrome, ti.URL)
			}
		}
	}
	if len(opened) == 0 {
		return
	}
	bctx, cancel := cleanupCtx(ctx)
	defer cancel()
	err := in.p.BringToFront(bctx)
	switch {
	case len(byChrome) > 0:
		msg := fmt.Sprintf("the page did not handle %s, so Chrome ran its own shortcut for it and opened %q in a new tab, which hid this one", combo, byChrome[0])
		if err != nil {
			msg += fmt.Sprintf("; bringing this tab back to the front failed (%v): mouse actions on it will hang until it is in front again (switchTab to it)", err)
		} else {
			msg += "; brought this tab back to the front. To reach the page's own shortcut, focus the element that handles it first (click or focus it)"
		}
		in.note(msg)
	case err != nil:
		in.note(fmt.Sprintf("a key opened %q in a new tab, which hid this one, and bringing this tab back to the front failed (%v): mouse actions on it will hang until it is in front again (switchTab to it)", opened[0], err))
	}
}

// comboName spells a combo as the agent wrote it (Control+h).
func comboName(c KeyCombo) string {
	s := ""
	for _, m := range c.ModKeys {
		s += m + "+"
	}
	return s + c.Name
}
