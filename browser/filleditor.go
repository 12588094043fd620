package browser

import (
	"context"
	"strings"
)

// fillEditor fills a code or rich-text editor's input surface
// (inpage/editors.js) as a user does: the field is focused (fillStart), the
// editor's own select-all key selects its whole document (or the end key
// puts the caret after it, for clear: false), the text goes in as a paste
// (as it is: typed code is auto-indented and gets closing brackets), or
// typed when the editor leaves pastes to the browser, and the fill is verified on the lines the editor renders. Never with the
// value setter: the editor's textarea holds only a window of its document,
// so setting it corrupts the document and reading it back proves nothing.
func (p *Page) fillEditor(ctx context.Context, el *Element, editor string, focused bool, value string, o FillOptions, res *FillResult) error {
	if !focused {
		return Errorf(KindElementNotEditable, "the %s editor's textbox cannot take focus", editor).
			WithHint("it may be covered or read-only; click on it first, then fill it")
	}
	if o.React {
		res.Warnings = append(res.Warnings, "react: true does not apply to a code or rich-text editor: its value setter would corrupt the editor's document; filled with its own keys and a paste instead")
	}
	keys := "ControlOrMeta+a"
	if !o.Clear {
		keys = "Control+End"
		if p.in.isMac() {
			keys = "Meta+ArrowDown"
		}
	}
	combo, err := p.in.ParseKeys(keys)
	if err != nil {
		return err
	}
	if err := p.in.Press(ctx, combo); err != nil {
		return err
	}
	res.Method = "paste"
	switch {
	case value != "":
		var pasted bool
		if err = el.call(ctx, &pasted, epEditorPaste, value); err == nil && !pasted {
			res.Method = "insertText"
			err = p.in.InsertText(ctx, value)
		}
	case o.Clear:
		res.Method = "keys"
		k, _ := lookupKey("Delete")
		err = p.in.Press(ctx, KeyCombo{Key: k, Name: "Delete"})
	}
	if err != nil {
		return err
	}
	g, err := el.readGuard(ctx)
	if err != nil {
		return err
	}
	if g.Redirected != nil {
		return textRedirected(*g.Redirected)
	}
	var r struct {
		Shown bool   `json:"shown"`
		Text  string `json:"text"`
		Gone  bool   `json:"gone"`
	}
	if err := el.call(ctx, &r, epEditorShows, value, !o.Clear); err != nil {
		return err
	}
	if !r.Shown {
		return editorRefused(editor, keys, r.Text, r.Gone)
	}
	res.Filled, res.Verified = true, ptr(true)
	return nil
}

// editorRefused is the error of an editor fill whose text does not show
// in the editor afterwards.
func editorRefused(editor, keys, shows string, gone bool) error {
	if gone {
		return Errorf(KindElementNotEditable, "the %s editor was replaced while the text went in", editor).
			WithHint("take a snapshot and fill the editor's new textbox")
	}
	if len([]rune(shows)) > 120 {
		shows = string([]rune(shows)[:120]) + "…"
	}
	return Errorf(KindElementNotEditable, "the %s editor did not take the text: after %s and the text put in, it shows %q", editor, keys, strings.TrimSpace(shows)).
		WithHint("the editor rewrote or ignored the text (a read-only editor, or one that reformats input); click its textbox, press %s, then type the text, and read the editor back", keys)
}
