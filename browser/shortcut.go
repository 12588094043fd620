package browser

import (
	"context"
	"fmt"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
)

// A key combo with Control, Alt or Meta that the page does not handle goes
// on to Chrome, which runs its own shortcut for it: Control+H opens the
// History page, Control+T a new tab, Control+N a window. Such a tab opens in
// this tab's window and hides it; a hidden page draws no frames, so Chrome
// acknowledges no mouse move sent to it and every later pointer action on
// the tab hangs until its timeout. A press therefore watches for a tab
// Chrome opened itself (no opener) and brings this tab back to the front.

// commandMods are the modifiers that make a key combo a possible browser
// shortcut: Alt, Control and Meta.
const commandMods Modifiers = 1 | 2 | 4

// shortcutWatch notices the tabs Chrome opens while a combo is pressed.
type shortcutWatch struct {
	in      *Input
	created <-chan jsonv2.Value
	stop    func()
}

// watchShortcut starts watching when the combo may be a browser shortcut;
// nil otherwise. (Chrome announces new tabs once discovery is on, which
// every action's watch turns on; a press without one turns it on here.)
func (in *Input) watchShortcut(ctx context.Context, c KeyCombo) *shortcutWatch {
	var mods Modifiers
	for _, m := range c.ModKeys {
		bit, _ := in.modifierBit(m)
		mods |= bit
	}
	if mods&commandMods == 0 || in.p.Browser == nil {
		return nil
	}
	in.p.discoverTargets(ctx)
	ch, stop := in.p.Browser.Session().Subscribe("Target.targetCreated")
	return &shortcutWatch{in: in, created: ch, stop: stop}
}

// finish stops the watch; when Chrome opened a tab of its own during the
// press, it brings this tab back to the front and notes it for the step's
// answer.
func (w *shortcutWatch) finish(ctx context.Context, c KeyCombo) {
	if w == nil {
		return
	}
	defer w.stop()
	var opened []string
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
		if ti := ev.TargetInfo; ti.Type == "page" && ti.OpenerID == "" && ti.TargetID != w.in.p.TargetID {
			opened = append(opened, ti.URL)
		}
	}
	if len(opened) == 0 {
		return
	}
	bctx, cancel := cleanupCtx(ctx)
	defer cancel()
	err := w.in.p.BringToFront(bctx)
	msg := fmt.Sprintf("the page did not handle %s, so Chrome ran its own shortcut for it and opened %q in a new tab, which hid this one", comboName(c), opened[0])
	if err != nil {
		msg += fmt.Sprintf("; bringing this tab back to the front failed (%v): mouse actions on it will hang until it is in front again (switchTab to it)", err)
	} else {
		msg += "; brought this tab back to the front. To reach the page's own shortcut, focus the element that handles it first (click or focus it)"
	}
	w.in.note(msg)
}

// comboName spells a combo as the agent wrote it (Control+h).
func comboName(c KeyCombo) string {
	s := ""
	for _, m := range c.ModKeys {
		s += m + "+"
	}
	return s + c.Name
}
