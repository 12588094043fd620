package corpus

import "testing"

// TestAgGridSortByHeader clicks AG Grid's "Price" header by its text: the
// grid's column state sorts price ascending and the rows follow.
func TestAgGridSortByHeader(t *testing.T) {
	t.Parallel()
	a := openPage(t, "aggrid.html", "[data-ready=aggrid]")
	a.do(`{"click":{"text":"Price","exact":true}}`)
	a.waitFor(`() => gridApi.getColumnState().find((c) => c.colId === 'price').sort === 'asc'`)
	if got := a.evalJSON(`() => models()`); got != `["Panda","Mondeo","Celica","Boxster"]` {
		t.Errorf("rows after sorting by price: %s", got)
	}
}

// TestAgGridEditCell double-clicks a Model cell, fills the editor AG Grid
// opens (by its ref in a new snapshot) and presses Enter: the row's data
// holds the new model, changed once.
func TestAgGridEditCell(t *testing.T) {
	t.Parallel()
	a := openPage(t, "aggrid.html", "[data-ready=aggrid]")
	a.do(`{"click":{"text":"Mondeo","exact":true,"doubleClick":true}}`, `{"wait":".ag-cell-inline-editing input"}`)
	editor := refIn(t, a.snapshot(), `textbox "Input Editor"`)
	a.do(`{"fill":{"ref":`+q(editor)+`,"value":"Focus"}}`, `{"press":"Enter"}`)
	if got := a.evalJSON(`() => [gridApi.getDisplayedRowAtIndex(1).data.model, edits, gridApi.getEditingCells().length]`); got != `["Focus",1,0]` {
		t.Errorf("[model, edits, cells still editing] = %s", got)
	}
}

// TestTabulatorSortByHeader clicks Tabulator's "Age" column header: the
// table's sorters say age ascending and the rows follow.
func TestTabulatorSortByHeader(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tabulator.html", "[data-ready=tabulator]")
	a.do(`{"click":{"text":"Age","exact":true}}`)
	a.waitFor(`() => table.getSorters().length === 1`)
	if got := a.evalJSON(`() => [table.getSorters().map((s) => s.field + ' ' + s.dir), names()]`); got != `[["age asc"],["Mary May","Christine Lobowski","Oli Bob","Brendon Philips"]]` {
		t.Errorf("[sorters, names] = %s", got)
	}
}

// TestTabulatorEditCell clicks an editable Team cell by its ref, fills the
// editor Tabulator opens and presses Enter: the row's data changes once.
func TestTabulatorEditCell(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tabulator.html", "[data-ready=tabulator]")
	cell := refIn(t, a.snapshot(), `gridcell "Design"`)
	a.do(`{"click":`+q(cell)+`}`, `{"wait":".tabulator-editing input"}`)
	editor := refIn(t, a.snapshot(), `textbox`)
	a.do(`{"fill":{"ref":`+q(editor)+`,"value":"Research"}}`, `{"press":"Enter"}`)
	if got := a.evalJSON(`() => [table.getData()[1].team, edits]`); got != `["Research",1]` {
		t.Errorf("[team, edits] = %s", got)
	}
}
