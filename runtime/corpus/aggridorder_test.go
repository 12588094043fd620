package corpus

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// gridRow is a body row of the snapshot: "row: Fiat | Panda | 14000".
var gridRow = regexp.MustCompile(`(?m)^\s*- row: (\w+) \| (\w+) \| (\d+)$`)

// TestAgGridRowsInTheGridsOrder sorts AG Grid by its Price header (by the
// header's ref), ascending then descending: AG Grid keeps its rows' DOM
// order and moves them visually, giving each its aria-rowindex; the
// snapshot and extract list the rows in the order the grid's own model
// has them (forEachNodeAfterFilterAndSort), and the column headers are
// named, sortable lines with refs and their sort state, not unnamed
// clickables.
func TestAgGridRowsInTheGridsOrder(t *testing.T) {
	t.Parallel()
	a := openPage(t, "aggrid.html", "[data-ready=aggrid]")
	snap := a.snapshot()
	for _, h := range []string{"Make", "Model", "Price"} {
		if !strings.Contains(snap, `columnheader "`+h+`" [ref=`) && !strings.Contains(snap, `columnheader "`+h+`" [focused] [ref=`) {
			t.Errorf("no named column header %q with a ref:\n%s", h, snap)
		}
	}
	price := refIn(t, snap, `columnheader "Price"`)
	for _, dir := range []string{"asc", "desc"} {
		a.do(`{"click":` + q(price) + `}`)
		a.waitFor(`() => gridApi.getColumnState().find((c) => c.colId === 'price').sort === '` + dir + `'`)
		var want []string
		json.Unmarshal([]byte(a.evalJSON(`() => models()`)), &want)
		snap = a.snapshot()
		var got []string
		for _, m := range gridRow.FindAllStringSubmatch(snap, -1) {
			got = append(got, m[2])
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("sorted %s: the snapshot lists %v, the grid %v:\n%s", dir, got, want, snap)
		}
		if !strings.Contains(snap, `columnheader "Price" [sort=`+dir+`ending]`) {
			t.Errorf("sorted %s: the Price header does not say so:\n%s", dir, snap)
		}
		out := a.do(`{"extract":"#grid"}`)
		var table struct {
			Headers []string
			Rows    [][]string
		}
		json.Unmarshal([]byte(jsonString(out.Steps[0].Output)), &table)
		got = got[:0]
		for _, r := range table.Rows {
			got = append(got, r[1])
		}
		if strings.Join(table.Headers, ",") != "Make,Model,Price" || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("sorted %s: extract gives %s, the grid %v", dir, jsonString(out.Steps[0].Output), want)
		}
	}
	// Each click sorted once: ascending, then descending.
	if got := a.evalJSON(`() => gridApi.getColumnState().filter((c) => c.sort).map((c) => c.colId + ' ' + c.sort)`); got != `["price desc"]` {
		t.Errorf("column state after two clicks: %s", got)
	}
}
