package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// readElement finds the element a read step is for, a ref or a CSS
// selector (open shadow roots searched too), the way actions find theirs:
// it waits for the element to appear (DefaultActionTimeout, bounded by the
// step's context), and a miss fails with the standard ElementNotFoundError.
// The caller releases it.
func (p *Page) readElement(ctx context.Context, sel string) (*Element, error) {
	sel = strings.TrimSpace(sel)
	if sel == "" {
		return nil, Errorf(KindStepValidation, "no selector: give a CSS selector or a ref")
	}
	return p.waitElement(ctx, NormalizeTarget(sel), 0)
}

// callEngineOn runs an engine method on the element of sel and decodes its
// answer; an answer carrying an error string fails with kind.
func (p *Page) callEngineOn(ctx context.Context, sel string, method engineEntry, out any, kind Kind, args ...any) error {
	el, err := p.readElement(ctx, sel)
	if err != nil {
		return err
	}
	defer el.release()
	var raw json.RawMessage
	fn := "(el, ...a) => " + method.js() + "(el, ...a)"
	if err := el.Call(ctx, &raw, fn, args...); err != nil {
		return engineError(method.name, err)
	}
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error != "" {
		return Errorf(kind, "%s", e.Error)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s: decode result: %w", method.name, err)
	}
	return nil
}

// ExtractOptions select what Extract reads (spec §11.6).
type ExtractOptions struct {
	// Selector is a CSS selector or a ref.
	Selector string `json:"-"`
	// Type is auto (default), table or list.
	Type string `json:"type,omitempty"`
	// Limit caps the rows or items (default 100).
	Limit int `json:"limit"`
	// Offset skips that many rows or items first (paging).
	Offset int `json:"offset"`
	// Headers forces (true) or refuses (false) a header row; nil detects it.
	Headers *bool `json:"headers,omitempty"`
}

// Extracted is a table or a list read from the page. A table has Headers
// (one per column, empty when it has none), Rows (every row as many cells
// as there are columns: a colspan repeats its text in each column, a
// rowspan carries it down) and the kind of value each column holds. A list
// has Items: a string each, or {text, items} for an item holding a list.
type Extracted struct {
	Type       string     `json:"type"`
	Caption    string     `json:"caption,omitempty"`
	Headers    []string   `json:"headers,omitempty"`
	Rows       [][]string `json:"rows,omitempty"`
	RowCount   int        `json:"rowCount,omitempty"`
	Types      []string   `json:"types,omitempty"`
	TotalRows  int        `json:"totalRows,omitempty"`
	Items      []any      `json:"items,omitempty"`
	ItemCount  int        `json:"itemCount,omitempty"`
	Ordered    bool       `json:"ordered,omitempty"`
	TotalItems int        `json:"totalItems,omitempty"`
	Truncated  bool       `json:"truncated,omitempty"`
	// Offset is the first row or item shown, when paging.
	Offset int `json:"offset,omitempty"`
	// NextPage is the ready-to-run step that reads the rows or items after
	// these, when more remain.
	NextPage map[string]any `json:"nextPage,omitempty"`
}

type extractedTable struct {
	Type      string     `json:"type"`
	Caption   string     `json:"caption,omitempty"`
	Headers   []string   `json:"headers"`
	Rows      [][]string `json:"rows"`
	RowCount  int        `json:"rowCount"`
	Types     []string   `json:"types"`
	Truncated bool       `json:"truncated,omitempty"`
	TotalRows int        `json:"totalRows,omitempty"`
	Offset    int        `json:"offset,omitempty"`
	NextPage  any        `json:"nextPage,omitempty"`
}

type extractedList struct {
	Type       string `json:"type"`
	Items      []any  `json:"items"`
	ItemCount  int    `json:"itemCount"`
	Ordered    bool   `json:"ordered,omitempty"`
	Truncated  bool   `json:"truncated,omitempty"`
	TotalItems int    `json:"totalItems,omitempty"`
	Offset     int    `json:"offset,omitempty"`
	NextPage   any    `json:"nextPage,omitempty"`
}

// MarshalJSON writes a table as {type, caption?, headers, rows, rowCount,
// types, truncated?, totalRows?} and a list as {type, items, itemCount,
// ordered?, truncated?, totalItems?}.
func (x Extracted) MarshalJSON() ([]byte, error) {
	if x.Type == "list" {
		return json.Marshal(extractedList{Type: x.Type, Items: nonNil(x.Items), ItemCount: x.ItemCount, Ordered: x.Ordered, Truncated: x.Truncated, TotalItems: x.TotalItems,
			Offset: x.Offset, NextPage: nilIfEmpty(x.NextPage)})
	}
	return json.Marshal(extractedTable{Type: x.Type, Caption: x.Caption, Headers: nonNil(x.Headers), Rows: nonNil(x.Rows), RowCount: x.RowCount,
		Types: nonNil(x.Types), Truncated: x.Truncated, TotalRows: x.TotalRows, Offset: x.Offset, NextPage: nilIfEmpty(x.NextPage)})
}

func nilIfEmpty(m map[string]any) any {
	if len(m) == 0 {
		return nil
	}
	return m
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Extract reads the table or list at a selector (or ref), detecting which
// one it is unless o.Type says.
func (p *Page) Extract(ctx context.Context, o ExtractOptions) (*Extracted, error) {
	switch o.Type {
	case "", "auto", "table", "list":
	default:
		return nil, Errorf(KindStepValidation, "extract type must be auto, table or list, not %q", o.Type)
	}
	if o.Limit <= 0 {
		o.Limit = 100
	}
	var out Extracted
	err := p.callEngineOn(ctx, o.Selector, epExtract, &out, KindElementNotFound, o)
	if err == nil && out.Truncated {
		// The next page, ready to run.
		next := map[string]any{"selector": o.Selector, "offset": o.Offset + o.Limit, "limit": o.Limit}
		if o.Type != "" && o.Type != "auto" {
			next["type"] = o.Type
		}
		out.NextPage = map[string]any{"extract": next}
	}
	var e *Error
	if errors.As(err, &e) && e.Kind == KindElementNotFound && strings.HasPrefix(e.Message, "no table") {
		e.Message = fmt.Sprintf("extract %q: %s", o.Selector, e.Message)
		e.WithHint(`point the selector at the table or list, or give type: "table" or "list" (with "list", the children of a plain container are the items)`)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// InspectOptions ask Inspect to count more selectors.
type InspectOptions struct {
	Selectors []string `json:"selectors,omitempty"`
	// Limit, when > 0, adds the text of up to Limit matches per selector.
	Limit int `json:"limit,omitempty"`
}

// ElementCounts are the counts of common elements (spec §11.5).
type ElementCounts struct {
	A        int `json:"a"`
	Button   int `json:"button"`
	Input    int `json:"input"`
	Textarea int `json:"textarea"`
	Select   int `json:"select"`
	H1       int `json:"h1"`
	H2       int `json:"h2"`
	H3       int `json:"h3"`
	Img      int `json:"img"`
	Form     int `json:"form"`
}

// SelectorCount is how many elements a selector matches, with the text of
// the first ones when asked.
type SelectorCount struct {
	Selector string   `json:"selector"`
	Count    int      `json:"count"`
	Values   []string `json:"values,omitempty"`
}

// Inspection is a page overview without a snapshot.
type Inspection struct {
	Title    string          `json:"title"`
	URL      string          `json:"url"`
	Elements ElementCounts   `json:"elements"`
	Custom   []SelectorCount `json:"custom,omitempty"`
}

// Inspect counts the common elements of the current frame's document and
// the matches of o.Selectors.
func (p *Page) Inspect(ctx context.Context, o InspectOptions) (*Inspection, error) {
	var out Inspection
	if err := p.engineCall(ctx, &out, epInspect, o); err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	return &out, nil
}

// BoxRect is a box in viewport CSS pixels, rounded.
type BoxRect struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// RefBox is the box of one ref (spec §11.8): the box with its centre, or
// Error "not found" (no such ref), "stale" (its element left the page;
// Message says more) or "hidden" (Box is still given).
type RefBox struct {
	Ref string `json:"-"`
	*BoxRect
	Center     *Point   `json:"center,omitempty"`
	ReResolved bool     `json:"reResolved,omitempty"`
	Error      string   `json:"error,omitempty"`
	Message    string   `json:"message,omitempty"`
	Box        *BoxRect `json:"box,omitempty"`
}

// GetBox returns the boxes of refs, in order.
func (p *Page) GetBox(ctx context.Context, refs []string) ([]RefBox, error) {
	if len(refs) == 0 {
		return nil, Errorf(KindStepValidation, "getBox needs at least one ref")
	}
	for _, r := range refs {
		if !IsRef(r) {
			return nil, Errorf(KindStepValidation, "%q is not a ref like s1e4: take refs from a snapshot", r)
		}
	}
	// Refs taken inside other frames are measured there (top-level
	// coordinates); the rest here.
	out := make([]RefBox, len(refs))
	done, err := p.getBoxIn(ctx, refs, out)
	if err != nil {
		return nil, err
	}
	var here []string
	for i, r := range refs {
		if !done[i] {
			here = append(here, r)
		}
	}
	if len(here) > 0 {
		var boxes []RefBox
		if err := p.engineCall(ctx, &boxes, epGetBox, here); err != nil {
			return nil, fmt.Errorf("getBox: %w", err)
		}
		if len(boxes) != len(here) {
			return nil, fmt.Errorf("getBox: the engine answered %d boxes for %d refs", len(boxes), len(here))
		}
		k := 0
		for i := range out {
			if !done[i] {
				out[i] = boxes[k]
				k++
			}
		}
	}
	for i := range out {
		out[i].Ref = refs[i]
	}
	return out, nil
}

// PointElement is the element at (or near) a viewport point, with a ref.
type PointElement struct {
	// X and Y are the point asked about (batches only).
	X        *float64 `json:"x,omitempty"`
	Y        *float64 `json:"y,omitempty"`
	Ref      string   `json:"ref,omitempty"`
	Existing bool     `json:"existing"`
	Tag      string   `json:"tag,omitempty"`
	Selector string   `json:"selector,omitempty"`
	// Clickable is a heuristic: a control, an interactive role, an onclick
	// handler or a pointer cursor.
	Clickable bool     `json:"clickable"`
	Role      string   `json:"role,omitempty"`
	Name      string   `json:"name"`
	Distance  *float64 `json:"distance,omitempty"`
	Box       *BoxRect `json:"box,omitempty"`
	Error     string   `json:"error,omitempty"`
	// Frame is the URL of the frame the element is in, when the point
	// fell on an iframe.
	Frame string `json:"frame,omitempty"`
}

type pointsAnswer struct {
	Results  []PointElement `json:"results"`
	Elements []PointElement `json:"elements"`
	Total    int            `json:"total"`
	Seq      *seqJSON       `json:"seq"`
}

// ElementsAt returns the element at each viewport point (through shadow
// roots; a part of a control, such as the icon in a button, reports the
// control), giving each a ref. A point with no element has Error set.
func (p *Page) ElementsAt(ctx context.Context, pts []Point) ([]PointElement, error) {
	if len(pts) == 0 {
		return nil, Errorf(KindStepValidation, "elementsAt needs at least one {x, y} point")
	}
	var a pointsAnswer
	if err := p.engineCall(ctx, &a, epElementsAt, map[string]any{"points": pts, "seq": p.seqArg()}); err != nil {
		return nil, fmt.Errorf("elementsAt: %w", err)
	}
	p.storeSeq(a.Seq)
	// A point over an iframe answers the element inside the frame.
	p.descendAt(ctx, pts, a.Results, 1)
	return a.Results, nil
}

// ElementAt returns the element at one viewport point.
func (p *Page) ElementAt(ctx context.Context, pt Point) (*PointElement, error) {
	res, err := p.ElementsAt(ctx, []Point{pt})
	if err != nil {
		return nil, err
	}
	e := res[0]
	if e.Error != "" {
		return nil, Errorf(KindElementNotFound, "%s", e.Error).WithAdvice(suggest.New("the point must lie inside the viewport; take a screenshot or read an element's box with %s to find coordinates", getBoxStep))
	}
	e.X, e.Y = nil, nil
	return &e, nil
}

// NearOptions tune ElementsNear.
type NearOptions struct {
	// Radius in CSS pixels (default 50).
	Radius float64
	// Limit caps the elements (default 20).
	Limit int
}

// Nearby is the answer of ElementsNear.
type Nearby struct {
	Center    Point          `json:"center"`
	Radius    float64        `json:"radius"`
	Count     int            `json:"count"`
	Elements  []PointElement `json:"elements"`
	Truncated bool           `json:"truncated,omitempty"`
}

// ElementsNear returns the visible elements whose centre lies within a
// radius of a viewport point, closest first: controls, and elements with
// their own text, media, click handlers or roles (bare wrappers and the
// parts of controls are left out).
func (p *Page) ElementsNear(ctx context.Context, pt Point, o NearOptions) (*Nearby, error) {
	if o.Radius <= 0 {
		o.Radius = 50
	}
	if o.Limit <= 0 {
		o.Limit = 20
	}
	var a pointsAnswer
	args := map[string]any{"x": pt.X, "y": pt.Y, "radius": o.Radius, "limit": o.Limit, "seq": p.seqArg()}
	if err := p.engineCall(ctx, &a, epElementsNear, args); err != nil {
		return nil, fmt.Errorf("elementsAt near (%g, %g): %w", pt.X, pt.Y, err)
	}
	p.storeSeq(a.Seq)
	if a.Elements == nil {
		a.Elements = []PointElement{}
	}
	return &Nearby{Center: pt, Radius: o.Radius, Count: len(a.Elements), Elements: a.Elements, Truncated: a.Total > len(a.Elements)}, nil
}
