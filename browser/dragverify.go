package browser

import (
	"context"
	"fmt"
)

// dragOutcome is the engine's answer to dragVerify: what became of the
// drag's source.
type dragOutcome struct {
	Lost        bool   `json:"lost"`
	Source      string `json:"source"`
	Drops       int    `json:"drops"`
	DropEffect  string `json:"dropEffect"`
	Moved       bool   `json:"moved"`
	Removed     bool   `json:"removed"`
	Landed      bool   `json:"landed"`
	Sibling     bool   `json:"sibling"`
	At          *Point `json:"at"`
	Index       *int   `json:"index"`
	IndexBefore *int   `json:"indexBefore"`
	Count       int    `json:"count"`
	// Into is the container the source moved into, when it left its own.
	Into string `json:"into"`
	// Slider is set for a slider's handle (role=slider), Value to its
	// aria-valuenow after the drag.
	Slider bool     `json:"slider"`
	Value  *float64 `json:"value"`
}

// dragMark records the drag's source and drop point in the page, for
// verifyDrag. A tab hidden behind another tab of its window (which Chrome
// sends no acknowledgement of a mouse move for) is brought to the front.
func (p *Page) dragMark(ctx context.Context, srcEl *Element, from, to Point) error {
	var err error
	var mark struct{ Hidden bool }
	if srcEl != nil {
		err = srcEl.call(ctx, &mark, epDragMark, from, to)
	} else {
		err = p.engineCall(ctx, &mark, epDragMark, nil, from, to)
	}
	if err != nil {
		return fmt.Errorf("drag: mark the source: %w", err)
	}
	if mark.Hidden {
		if err := p.BringToFront(ctx); err != nil {
			return fmt.Errorf("drag: the tab is hidden behind another tab of its window, and bringing it to the front failed: %w", err)
		}
		p.in.note("the tab was hidden behind another tab of its window, where no mouse move reaches the page; brought it to the front before the drag")
	}
	return nil
}

// verifyDrag reads what became of the source and says so: a drag whose
// source did not move and that no element accepted, or whose source moved
// but not to the drop point, gets a warning, never a bare ok.
func (p *Page) verifyDrag(ctx context.Context, res *DragResult) error {
	var out dragOutcome
	if err := p.engineCall(ctx, &out, epDragVerify); err != nil {
		if KindOf(err) == KindContextDestroyed {
			return nil // the drop navigated
		}
		return fmt.Errorf("drag: read the result: %w", err)
	}
	if out.Lost || out.Source == "" {
		return nil
	}
	res.SourceMoved, res.Landed, res.DropAccepted, res.Index = &out.Moved, &out.Landed, out.Drops > 0, out.Index
	if out.Slider {
		res.Value, res.Index = out.Value, nil
	}
	if w := out.warning(res.Method); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return nil
}

// warning explains a drag that did not visibly do what was asked, or "".
func (o dragOutcome) warning(method string) string {
	html5 := method == DragHTML5 || method == "html5-synthetic"
	switch {
	case o.Moved && !o.Landed && !o.Removed:
		msg := fmt.Sprintf("%s moved but did not land at the drop point", o.Source)
		if o.Index != nil && o.IndexBefore != nil && *o.Index != *o.IndexBefore {
			msg += fmt.Sprintf(": it went from position %d to %d of %d in its list", *o.IndexBefore+1, *o.Index+1, o.Count)
		} else if o.Into != "" {
			return msg + fmt.Sprintf(": the page put it into %s, outside the drop target (a list the drag passed over may have taken it); check the result in a snapshot, and drop it on the list or an item inside the target", o.Into)
		} else if o.At != nil {
			msg += fmt.Sprintf(": its centre is now at (%.0f, %.0f)", o.At.X, o.At.Y)
		}
		return msg + "; the page may have ignored part of the drag: check the result in a snapshot, and retry with more steps or a delay"
	case o.Moved:
		return ""
	case o.Drops > 0 && o.Sibling:
		return fmt.Sprintf("the drop was accepted but %s stayed in its place among its siblings; check the order in a snapshot", o.Source)
	case o.Drops > 0:
		return ""
	case html5:
		return fmt.Sprintf("%s did not move and no element accepted the drop (nothing at the drop point cancelled dragover); pick a drop target the page accepts", o.Source)
	}
	return ""
}
