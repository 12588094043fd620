package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// MouseButton names a mouse button.
type MouseButton string

// ParseButton validates a button name ("" is left).
func ParseButton(s string) (input.MouseButton, error) {
	switch strings.ToLower(s) {
	case "", "left":
		return input.MouseButtonLeft, nil
	case "right":
		return input.MouseButtonRight, nil
	case "middle":
		return input.MouseButtonMiddle, nil
	}
	return "", Errorf(KindStepValidation, "button %q is not left, right or middle", s)
}

// Input is a tab's keyboard and mouse: it reads key combos and modifier
// names and dispatches trusted key and mouse events to the top-level
// viewport. Reach it by Page.Input.
type Input struct {
	p *Page
	// platform is navigator.platform, read on first need; guarded by mu
	// (not the page's lock: reading it evaluates in the page).
	mu       sync.Mutex
	platform string
	// hmu guards held (apart from mu, which isMac holds while it
	// evaluates in the page).
	hmu  sync.Mutex
	held heldInput
}

// Modifiers is a bit set of Alt=1, Control=2, Meta=4, Shift=8.
type Modifiers int64

// ParseModifiers reads modifier names (Control, Ctrl, Alt, Option, Meta,
// Cmd, Command, Shift, ControlOrMeta).
func (in *Input) ParseModifiers(names []string) (Modifiers, error) {
	var m Modifiers
	for _, n := range names {
		bit, ok := in.modifierBit(n)
		if !ok {
			return 0, Errorf(KindStepValidation, "unknown modifier %q: use Control, Alt, Meta, Shift or ControlOrMeta", n)
		}
		m |= bit
	}
	return m, nil
}

func (in *Input) modifierBit(name string) (Modifiers, bool) {
	switch strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(name), "left"), "right") {
	case "alt", "option":
		return 1, true
	case "control", "ctrl":
		return 2, true
	case "meta", "cmd", "command", "super":
		return 4, true
	case "shift":
		return 8, true
	case "controlormeta", "mod":
		if in.isMac() {
			return 4, true
		}
		return 2, true
	}
	return 0, false
}

// isMac reports whether the page's platform is macOS (for ControlOrMeta).
func (in *Input) isMac() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.platform == "" {
		var plat string
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		raw, err := in.p.Eval(ctx, "navigator.platform")
		cancel()
		if err == nil {
			plat = strings.Trim(string(raw), `"`)
		}
		if plat == "" {
			plat = "unknown"
		}
		in.platform = plat
	}
	return strings.HasPrefix(in.platform, "Mac")
}

// mouseClick dispatches a full mouse click at the point of the top-level
// viewport: move, press, release (count times for double clicks).
//
// The events go out together and their answers are read after: alone, a
// move waits for the renderer's next animation frame (up to 16 ms), and
// each answer waits for the renderer to handle its event; queued, they
// are handled at once, in order, in about one round trip.
func (in *Input) mouseClick(ctx context.Context, pt Point, button input.MouseButton, count int, mods Modifiers) error {
	type sent struct {
		what string
		wait func(context.Context, any) error
	}
	var queue []sent
	send := func(what string, params input.DispatchMouseEventParams) error {
		wait, err := in.p.sess.Send(ctx, "Input.dispatchMouseEvent", params)
		if err != nil {
			return fmt.Errorf("mouse %s: %w", what, err)
		}
		queue = append(queue, sent{what, wait})
		switch params.Type {
		case input.DispatchMouseEventTypeMousePressed:
			in.trackButton(params.Button, pt, true)
		case input.DispatchMouseEventTypeMouseReleased:
			in.trackButton(params.Button, pt, false)
		}
		return nil
	}
	err := send("move", input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: pt.X, Y: pt.Y, Modifiers: int64(mods)})
	for i := 1; i <= count && err == nil; i++ {
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			if err = send(string(typ), input.DispatchMouseEventParams{
				Type: typ, X: pt.X, Y: pt.Y, Button: button, ClickCount: int64(i), Modifiers: int64(mods), Buttons: buttonsMask(button, typ == input.DispatchMouseEventTypeMousePressed),
			}); err != nil {
				break
			}
		}
	}
	pressed := false
	for _, q := range queue {
		werr := q.wait(ctx, nil)
		if werr == nil && q.what == string(input.DispatchMouseEventTypeMousePressed) {
			pressed = true
		}
		if werr != nil && err == nil {
			err = unacknowledged(ctx, "click", mousePhase[q.what], fmt.Errorf("mouse %s: %w", q.what, werr))
		}
	}
	if err != nil && (pressed || len(queue) == 1+2*count) && in.p.TabClosed() {
		// The page handled the press and closed its own tab (a popup's
		// close button): the click happened, and the answer says the tab
		// is gone (runtime's lost-tab warning). The close can also cut
		// off the answers of events the page already handled (the move's
		// and the press's, sent together with the release), so a click
		// sent in full before the tab closed counts too.
		return nil
	}
	return err
}

// mousePhase names the events of a click for an error.
var mousePhase = map[string]string{"move": "mouse move to the target", string(input.DispatchMouseEventTypeMousePressed): "mouse press", string(input.DispatchMouseEventTypeMouseReleased): "mouse release"}

func buttonsMask(b input.MouseButton, down bool) int64 {
	if !down {
		return 0
	}
	switch b {
	case input.MouseButtonRight:
		return 2
	case input.MouseButtonMiddle:
		return 4
	}
	return 1
}

func (in *Input) mouseMove(ctx context.Context, pt Point, mods Modifiers) error {
	_, err := cdp.Call(ctx, in.p.sess, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: pt.X, Y: pt.Y, Modifiers: int64(mods)})
	if err != nil {
		return fmt.Errorf("mouse move: %w", err)
	}
	return nil
}

// mouseButton presses or releases a button at a point (for drags).
func (in *Input) mouseButton(ctx context.Context, pt Point, down bool) error {
	typ := input.DispatchMouseEventTypeMouseReleased
	if down {
		typ = input.DispatchMouseEventTypeMousePressed
	}
	in.trackButton(input.MouseButtonLeft, pt, down)
	_, err := cdp.Call(ctx, in.p.sess, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: pt.X, Y: pt.Y, Button: input.MouseButtonLeft, ClickCount: 1, Buttons: buttonsMask(input.MouseButtonLeft, down)})
	return err
}

// keyIndex maps key names (Enter, ArrowDown, a, F5, Digit1, …) to kb keys,
// built on first use.
var keyIndex = sync.OnceValue(buildKeyIndex)

func buildKeyIndex() map[string]*kb.Key {
	idx := map[string]*kb.Key{}
	for r, k := range kb.Keys {
		if k.Shift {
			continue
		}
		if k.Key != "" {
			if _, dup := idx[k.Key]; !dup || r < 0x80 {
				idx[k.Key] = k
			}
		}
		if k.Code != "" {
			if _, dup := idx[k.Code]; !dup {
				idx[k.Code] = k
			}
		}
	}
	for _, k := range extraKeys() {
		idx[k.Code] = k
	}
	aliases := map[string]string{"Return": "Enter", "Esc": "Escape", "Space": " ", "Spacebar": " ", "Del": "Delete",
		"Up": "ArrowUp", "Down": "ArrowDown", "Left": "ArrowLeft", "Right": "ArrowRight", "PgUp": "PageUp", "PgDn": "PageDown"}
	for a, k := range aliases {
		if key, ok := idx[k]; ok {
			idx[a] = key
		}
	}
	return idx
}

// extraKeys are keys kb.Keys lacks: the right-hand modifiers and the
// numeric keypad (built when keyIndex is, not at start-up).
func extraKeys() []*kb.Key {
	keys := []*kb.Key{
		{Code: "ShiftRight", Key: "Shift", Native: 161, Windows: 161},
		{Code: "ControlRight", Key: "Control", Native: 163, Windows: 163},
		{Code: "AltRight", Key: "Alt", Native: 165, Windows: 165},
		{Code: "MetaRight", Key: "Meta", Native: 92, Windows: 92},
		{Code: "NumpadEnter", Key: "Enter", Text: "\r", Unmodified: "\r", Native: 13, Windows: 13, Print: true},
	}
	for i, c := range "0123456789" {
		keys = append(keys, &kb.Key{Code: "Numpad" + string(c), Key: string(c), Text: string(c), Unmodified: string(c), Native: int64(0x60 + i), Windows: int64(0x60 + i), Print: true})
	}
	for _, op := range []struct {
		code, key string
		vk        int64
	}{{"NumpadMultiply", "*", 0x6a}, {"NumpadAdd", "+", 0x6b}, {"NumpadSubtract", "-", 0x6d}, {"NumpadDecimal", ".", 0x6e}, {"NumpadDivide", "/", 0x6f}} {
		keys = append(keys, &kb.Key{Code: op.code, Key: op.key, Text: op.key, Unmodified: op.key, Native: op.vk, Windows: op.vk, Print: true})
	}
	return keys
}

// lookupKey finds a key by name, case-insensitively for named keys.
func lookupKey(name string) (*kb.Key, bool) {
	if k, ok := keyIndex()[name]; ok {
		return k, true
	}
	if utf8.RuneCountInString(name) > 1 {
		for n, k := range keyIndex() {
			if strings.EqualFold(n, name) {
				return k, true
			}
		}
	}
	if r, _ := utf8.DecodeRuneInString(name); utf8.RuneLen(r) == len(name) {
		if k, ok := kb.Keys[r]; ok {
			return k, true
		}
	}
	return nil, false
}

// modifierKeyName is the key a modifier in a combo presses: the side named
// (ShiftRight, ControlLeft) or the left one.
func modifierKeyName(written string, bit Modifiers) string {
	name := map[Modifiers]string{1: "Alt", 2: "Control", 4: "Meta", 8: "Shift"}[bit]
	if k, ok := lookupKey(written); ok && strings.HasSuffix(k.Code, "Right") && k.Key == name {
		return k.Code
	}
	return name
}

// KeyCombo is a parsed key press such as Control+Shift+P.
type KeyCombo struct {
	// Unknown is set when the key name is not a known key.
	Unknown bool
	Mods    Modifiers
	// Modifier key names in press order.
	ModKeys []string
	Key     *kb.Key
	// Name is the key as written.
	Name string
}

// ParseKeys parses "Control+Shift+p". An unknown key is reported as an
// error listing the accepted names.
func (in *Input) ParseKeys(combo string) (KeyCombo, error) {
	if combo == "" {
		return KeyCombo{}, Errorf(KindStepValidation, "empty key")
	}
	parts := strings.Split(combo, "+")
	// "Control++" presses the plus key.
	if strings.HasSuffix(combo, "++") {
		parts = append(parts[:len(parts)-2], "+")
	}
	var c KeyCombo
	for _, m := range parts[:len(parts)-1] {
		bit, ok := in.modifierBit(strings.TrimSpace(m))
		if !ok {
			return c, Errorf(KindStepValidation, "unknown modifier %q in %q: use Control, Alt, Meta, Shift or ControlOrMeta", m, combo)
		}
		c.Mods |= bit
		c.ModKeys = append(c.ModKeys, modifierKeyName(strings.TrimSpace(m), bit))
	}
	c.Name = parts[len(parts)-1]
	if c.Name == "" {
		return c, Errorf(KindStepValidation, "no key in %q", combo)
	}
	k, ok := lookupKey(c.Name)
	if !ok {
		// Dispatched with this key value all the same (a page may listen for
		// it), but the caller warns: it is most likely a typo.
		c.Unknown = true
		k = &kb.Key{Key: c.Name}
	}
	c.Key = k
	return c, nil
}

// SuggestKey returns the known key name closest to name, or "".
func SuggestKey(name string) string {
	best, bestD := "", len(name)/3+2
	for n := range keyIndex() {
		if len(n) < 2 {
			continue
		}
		if d := editDistance(strings.ToLower(n), strings.ToLower(name)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// Press dispatches a key combo: modifiers down, key down (char for text
// when no command modifier is held), key up, modifiers up. A combo the page
// leaves to Chrome's own shortcuts (Control+H), or a key that made the page
// open a tab, brings this tab back to the front (see shortcut.go).
func (in *Input) Press(ctx context.Context, c KeyCombo) error {
	in.watchTabs(ctx, &c)
	err := in.press(ctx, c)
	in.frontAfterKeys(ctx, false)
	return err
}

func (in *Input) press(ctx context.Context, c KeyCombo) error {
	var held Modifiers
	for _, m := range c.ModKeys {
		bit, _ := in.modifierBit(m)
		held |= bit
		k, _ := lookupKey(m)
		if err := in.keyEvent(ctx, kb.KeyRawDown, k, held, ""); err != nil {
			return err
		}
	}
	k := c.Key
	text := ""
	if k.Print && held&(1|2|4) == 0 {
		text = k.Text
		if held&8 != 0 {
			if shifted, ok := kb.Keys[[]rune(strings.ToUpper(k.Text))[0]]; ok && len(k.Text) == 1 {
				text = shifted.Text
			}
		}
	}
	// A modifier pressed on its own is held while it is down, as on a
	// real keyboard (shiftKey is true in the keydown of Shift).
	down := held
	if isModifierCode(k.Code) {
		bit, _ := in.modifierBit(k.Key)
		down |= bit
	}
	if err := in.keyEvent(ctx, kb.KeyDown, k, down, text); err != nil {
		return err
	}
	if err := in.keyEvent(ctx, kb.KeyUp, k, held, ""); err != nil {
		return err
	}
	for i := len(c.ModKeys) - 1; i >= 0; i-- {
		bit, _ := in.modifierBit(c.ModKeys[i])
		held &^= bit
		mk, _ := lookupKey(c.ModKeys[i])
		if err := in.keyEvent(ctx, kb.KeyUp, mk, held, ""); err != nil {
			return err
		}
	}
	return nil
}

func (in *Input) keyEvent(ctx context.Context, typ input.DispatchKeyEventType, k *kb.Key, mods Modifiers, text string) error {
	params := input.DispatchKeyEventParams{
		Type:                  typ,
		Modifiers:             int64(mods),
		Key:                   k.Key,
		Code:                  k.Code,
		WindowsVirtualKeyCode: k.Windows,
		NativeVirtualKeyCode:  k.Native,
		Text:                  text,
		UnmodifiedText:        text,
		Location:              keyLocation(k.Code),
		IsKeypad:              keypad(k.Code),
	}
	if typ == kb.KeyDown && text == "" {
		params.Type = kb.KeyRawDown
	}
	in.trackKey(k, typ != input.DispatchKeyEventTypeKeyUp)
	if _, err := cdp.Call(ctx, in.p.sess, input.DispatchKeyEvent, params); err != nil {
		return fmt.Errorf("key %s %s: %w", k.Key, typ, err)
	}
	return nil
}

// keyLocation is the CDP location of a key code: 1 for the left modifier
// keys, 2 for the right ones, 0 otherwise (the numeric keypad is isKeypad).
func keyLocation(code string) int64 {
	switch {
	case !isModifierCode(code):
		return 0
	case strings.HasSuffix(code, "Left"):
		return 1
	case strings.HasSuffix(code, "Right"):
		return 2
	}
	return 0
}

func isModifierCode(code string) bool {
	for _, m := range []string{"Shift", "Control", "Alt", "Meta", "OS"} {
		if strings.HasPrefix(code, m) {
			return true
		}
	}
	return false
}

// TypeText types text key by key with delay between keys: for each
// character a keyDown carrying its text, then a keyUp, as a real keyboard
// does, so a page that cancels the keydown does not get the character.
// Characters with no key on a US keyboard are inserted as text.
func (in *Input) TypeText(ctx context.Context, text string, delay time.Duration) error {
	if strings.ContainsAny(text, "\r\n") {
		// Enter may open a tab (a link, a form with target=_blank).
		in.watchTabs(ctx, nil)
		defer in.frontAfterKeys(ctx, false)
	}
	for i, r := range text {
		if i > 0 && delay > 0 {
			if err := Sleep(ctx, delay); err != nil {
				return err
			}
		}
		if r == '\n' {
			r = '\r'
		}
		k, ok := kb.Keys[r]
		if !ok {
			if err := in.InsertText(ctx, string(r)); err != nil {
				return err
			}
			continue
		}
		if err := in.typeKey(ctx, r, k); err != nil {
			return fmt.Errorf("type %q: %w", r, err)
		}
	}
	return nil
}

// typeKey sends the keyDown (with the character's text when it prints)
// and keyUp of one character.
func (in *Input) typeKey(ctx context.Context, r rune, k *kb.Key) error {
	var mods Modifiers
	if k.Shift {
		mods = 8
	}
	text := ""
	if k.Print {
		text = k.Text
	}
	down := input.DispatchKeyEventParams{
		Type: input.DispatchKeyEventTypeKeyDown, Modifiers: int64(mods), Key: k.Key, Code: k.Code,
		WindowsVirtualKeyCode: k.Windows, NativeVirtualKeyCode: k.Native,
		Text: text, UnmodifiedText: k.Unmodified, Location: keyLocation(k.Code),
	}
	if text == "" {
		down.Type, down.UnmodifiedText = input.DispatchKeyEventTypeRawKeyDown, ""
	}
	up := down
	up.Type, up.Text, up.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
	for _, ev := range []input.DispatchKeyEventParams{down, up} {
		in.trackKey(k, ev.Type != input.DispatchKeyEventTypeKeyUp)
		if _, err := cdp.Call(ctx, in.p.sess, input.DispatchKeyEvent, ev); err != nil {
			return err
		}
	}
	return nil
}

// InsertText inserts text at the caret as an IME would (one input event).
func (in *Input) InsertText(ctx context.Context, text string) error {
	_, err := cdp.Call(ctx, in.p.sess, input.InsertText, input.InsertTextParams{Text: text})
	return err
}

// keypad is CDP's isKeypad for a key code: set for the numeric keypad
// (KeyboardEvent.location 3), nil otherwise.
func keypad(code string) *bool {
	if !strings.HasPrefix(code, "Numpad") {
		return nil
	}
	t := true
	return &t
}
