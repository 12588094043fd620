package corpus

import "testing"

// TestBootstrapModalForm opens a Bootstrap modal by its button's ref,
// fills its field and saves by the refs in the click's answer: the page
// shows the new name, the save handler ran once and the modal closed.
func TestBootstrapModalForm(t *testing.T) {
	t.Parallel()
	a := openPage(t, "bootstrap.html", "[data-ready=bootstrap]")
	open := refIn(t, a.snapshot(), `button "Rename project"`)
	yaml := a.look(`{"click":`+q(open)+`}`, `{"wait":"#rename.show"}`)
	field, save := refIn(t, yaml, `textbox "New name"`), refIn(t, yaml, `button "Save changes"`)
	a.do(`{"fill":{"ref":`+q(field)+`,"value":"Artemis"}}`, `{"click":`+q(save)+`}`)
	a.waitFor(`() => !document.querySelector('#rename.show') && !document.querySelector('.modal-backdrop')`)
	if got := a.evalJSON(`() => [document.getElementById('project-name').textContent, saves]`); got != `["Artemis",1]` {
		t.Fatalf("[name, saves] = %s", got)
	}
}

// TestBootstrapDropdown opens a Bootstrap dropdown and clicks an item by
// its ref: that item's handler runs once and the menu closes.
func TestBootstrapDropdown(t *testing.T) {
	t.Parallel()
	a := openPage(t, "bootstrap.html", "[data-ready=bootstrap]")
	toggle := refIn(t, a.snapshot(), `button "Actions"`)
	archive := refIn(t, a.look(`{"click":`+q(toggle)+`}`), `"Archive"`)
	a.do(`{"click":` + q(archive) + `}`)
	if got := a.evalJSON(`() => [actions, document.querySelector('.dropdown-menu').classList.contains('show')]`); got != `[["archive"],false]` {
		t.Fatalf("[actions, menu open] = %s", got)
	}
}

// TestBootstrapTooltip hovers a button with a Bootstrap tooltip: the
// tooltip's own state is shown, with its text.
func TestBootstrapTooltip(t *testing.T) {
	t.Parallel()
	a := openPage(t, "bootstrap.html", "[data-ready=bootstrap]")
	help := refIn(t, a.snapshot(), `button "Help"`)
	a.do(`{"hover":` + q(help) + `}`)
	a.waitFor(`() => tooltip._isShown()`)
	if got := a.evalJSON(`() => document.querySelector('.tooltip').textContent`); got != `"Projects group your dashboards"` {
		t.Fatalf("tooltip text = %s", got)
	}
}

// TestTippyHover hovers a button with a Tippy tooltip: Tippy's instance
// says it is shown.
func TestTippyHover(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tippy.html", "[data-ready=tippy]")
	why := refIn(t, a.snapshot(), `button "Why this price?"`)
	a.do(`{"hover":` + q(why) + `}`)
	a.waitFor(`() => why.state.isShown`)
	if got := a.evalJSON(`() => why.popper.textContent`); got != `"Billed per seat, yearly"` {
		t.Fatalf("tooltip text = %s", got)
	}
}

// TestTippyInteractiveMenu opens an interactive Tippy menu with a click
// and clicks the button inside it by its ref: its handler runs once.
func TestTippyInteractiveMenu(t *testing.T) {
	t.Parallel()
	a := openPage(t, "tippy.html", "[data-ready=tippy]")
	more := refIn(t, a.snapshot(), `button "More options"`)
	send := refIn(t, a.look(`{"click":`+q(more)+`}`, `{"wait":"#send-invoice"}`), `button "Send invoice"`)
	a.do(`{"click":` + q(send) + `}`)
	if got := a.evalJSON(`() => sent`); got != `1` {
		t.Fatalf("invoices sent = %s, want 1", got)
	}
}

// TestSweetAlertConfirm answers a SweetAlert2 confirmation by the ref of
// its confirm button: the page's promise resolves as confirmed, once.
func TestSweetAlertConfirm(t *testing.T) {
	t.Parallel()
	a := openPage(t, "sweetalert.html", "[data-ready=sweetalert]")
	del := refIn(t, a.snapshot(), `button "Delete report.pdf"`)
	yes := refIn(t, a.look(`{"click":`+q(del)+`}`, `{"wait":".swal2-popup"}`), `button "Yes, delete it"`)
	a.do(`{"click":` + q(yes) + `}`)
	a.waitFor(`() => results.length > 0`)
	if got := a.evalJSON(`() => [results, Swal.isVisible()]`); got != `[["deleted"],false]` {
		t.Fatalf("[results, open] = %s", got)
	}
}

// TestSweetAlertPrompt fills a SweetAlert2 prompt's field by its label's
// ref and confirms: the page receives the typed name.
func TestSweetAlertPrompt(t *testing.T) {
	t.Parallel()
	a := openPage(t, "sweetalert.html", "[data-ready=sweetalert]")
	rename := refIn(t, a.snapshot(), `button "Rename notes.txt"`)
	yaml := a.look(`{"click":`+q(rename)+`}`, `{"wait":".swal2-input"}`)
	field, ok := refIn(t, yaml, `textbox "New file name"`), refIn(t, yaml, `button "Rename"`)
	a.do(`{"fill":{"ref":`+q(field)+`,"value":"todo.txt"}}`, `{"click":`+q(ok)+`}`)
	a.waitFor(`() => results.length > 0`)
	if got := a.evalJSON(`() => results`); got != `["renamed:todo.txt"]` {
		t.Fatalf("results = %s", got)
	}
}

// TestSwiperNextButtons clicks Swiper's "Next slide" button twice by ref:
// the carousel is on its third slide.
func TestSwiperNextButtons(t *testing.T) {
	t.Parallel()
	a := openPage(t, "swiper.html", "[data-ready=swiper]")
	next := refIn(t, a.snapshot(), `button "Next slide"`)
	a.do(`{"click":`+q(next)+`}`, `{"click":`+q(next)+`}`)
	if got := a.evalJSON(`() => swiper.activeIndex`); got != `2` {
		t.Fatalf("swiper.activeIndex = %s, want 2", got)
	}
}

// TestSwiperPagination clicks the "Go to slide 4" bullet by its ref.
func TestSwiperPagination(t *testing.T) {
	t.Parallel()
	a := openPage(t, "swiper.html", "[data-ready=swiper]")
	bullet := refIn(t, a.snapshot(), `button "Go to slide 4"`)
	a.do(`{"click":` + q(bullet) + `}`)
	if got := a.evalJSON(`() => swiper.activeIndex`); got != `3` {
		t.Fatalf("swiper.activeIndex = %s, want 3", got)
	}
}
