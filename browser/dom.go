package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"unicode/utf8"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// DOMSpillLimit is the size (bytes) above which GetDOM writes the HTML to a
// file and returns only its beginning.
const DOMSpillLimit = 8 * 1024

// DOMPreview is how many bytes of spilled HTML GetDOM returns inline.
const DOMPreview = 1024

// DOMOptions select the HTML GetDOM returns (spec §11.7).
type DOMOptions struct {
	// Selector is a CSS selector or a ref; empty means the whole document.
	Selector string
	// Inner returns innerHTML instead of outerHTML.
	Inner bool
}

// DOM is raw HTML from the page. Length counts the characters of the whole
// HTML; when it is larger than DOMSpillLimit, File holds all of it and
// HTML only the first DOMPreview bytes.
type DOM struct {
	HTML      string `json:"html"`
	TagName   string `json:"tagName"`
	Selector  string `json:"selector,omitempty"`
	Length    int    `json:"length"`
	File      string `json:"file,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	Message   string `json:"message,omitempty"`
}

// GetDOM returns the outerHTML of the document, or the outer (or inner)
// HTML of the first element a selector or ref names, in the current frame.
func (p *Page) GetDOM(ctx context.Context, o DOMOptions) (*DOM, error) {
	var d DOM
	if o.Selector == "" {
		raw, err := p.engineEval(ctx, `({html: document.documentElement.outerHTML, tagName: document.documentElement.localName})`)
		if err == nil {
			err = json.Unmarshal(raw, &d)
		}
		if err != nil {
			return nil, fmt.Errorf("getDom: %w", err)
		}
	} else {
		el, err := p.readElement(ctx, o.Selector)
		if err != nil {
			return nil, err
		}
		defer el.release()
		fn := `(el, inner) => ({html: inner ? el.innerHTML : el.outerHTML, tagName: el.localName})`
		if err := el.Call(ctx, &d, fn, o.Inner); err != nil {
			return nil, fmt.Errorf("getDom %q: %w", o.Selector, err)
		}
		d.Selector = o.Selector
	}
	d.HTML = maskSecretInputs(d.HTML)
	d.Length = utf8.RuneCountInString(d.HTML)
	if len(d.HTML) > DOMSpillLimit {
		if err := p.spillDOM(&d, o); err != nil {
			return nil, err
		}
	}
	return &d, nil
}

// spillDOM writes the HTML under the state dir (dom/<tab>-<hash>.html, so
// asking again for the same element overwrites the same file) and keeps
// the first DOMPreview bytes inline.
func (p *Page) spillDOM(d *DOM, o DOMOptions) error {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%v", o.Selector, o.Inner)
	tab := string(p.TargetID)
	if len(tab) > 8 {
		tab = tab[:8]
	}
	path, err := state.WriteFile([]byte(d.HTML), "dom", fmt.Sprintf("%s-%08x.html", tab, h.Sum32()))
	if err != nil {
		return fmt.Errorf("getDom: %w", err)
	}
	full := len(d.HTML)
	d.HTML = cutUTF8(d.HTML, DOMPreview)
	d.File, d.Truncated = path, true
	d.Message = fmt.Sprintf("the HTML is %d bytes; the first %d are inline and all of it is in %s (or narrow it with a selector)", full, len(d.HTML), path)
	return nil
}

// cutUTF8 returns the longest prefix of s within n bytes that does not
// split a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
