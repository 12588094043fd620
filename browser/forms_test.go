package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func selectOpt(t *testing.T, p *Page, tg Target, wants ...SelectWant) *SelectResult {
	t.Helper()
	res, err := p.SelectOption(testCtx(t), tg, wants, ActionOptions{})
	if err != nil {
		t.Fatalf("selectOption %s: %v", tg, err)
	}
	return res
}

func TestSelectOptionByValueLabelIndexAndRef(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	res := selectOpt(t, p, Target{Selector: "#plan"}, OptionAny("pro"))
	if len(res.Selected) != 1 || res.Selected[0] != (SelectedOption{Value: "pro", Label: "Pro"}) || res.Multiple {
		t.Fatalf("by value: %+v", res)
	}
	if got := js(t, p, "[document.getElementById('plan').value, window.log]"); got != `["pro",["plan:pro"]]` {
		t.Fatalf("page state after select by value = %s", got)
	}
	selectOpt(t, p, Target{Label: "Plan"}, OptionLabel("team plan"))
	selectOpt(t, p, Target{Selector: "#plan"}, OptionIndex(0))
	s, err := p.Snapshot(testCtx(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	selectOpt(t, p, Target{Ref: refOf(t, s.YAML, `combobox "Plan"`)}, OptionValue("pro"))
	if got := js(t, p, "[document.getElementById('plan').value, window.log]"); got != `["pro",["plan:pro","plan:team","plan:free","plan:pro"]]` {
		t.Fatalf("page state = %s", got)
	}
}

func TestSelectOptionMissListsOptions(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	ctx := testCtx(t)
	short := ActionOptions{Timeout: 500 * time.Millisecond}
	_, err := p.SelectOption(ctx, Target{Selector: "#plan"}, []SelectWant{OptionAny("enterprise")}, short)
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), `"Pro" (value "pro")`) || !strings.Contains(err.Error(), `"enterprise"`) {
		t.Fatalf("miss: %v", err)
	}
	_, err = p.SelectOption(ctx, Target{Selector: "#many"}, []SelectWant{OptionLabel("o99")}, short)
	var e *Error
	if !asError(err, &e) || len(e.Details["available"].([]map[string]string)) != 10 || !strings.Contains(err.Error(), "and 2 more") {
		t.Fatalf("miss on a long select: %v", err)
	}
	_, err = p.SelectOption(ctx, Target{Selector: "#plan"}, []SelectWant{OptionLabel("Legacy")}, short)
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "disabled") {
		t.Fatalf("disabled option: %v", err)
	}
	if got := js(t, p, "[document.getElementById('plan').value, window.log.length]"); got != `["free",0]` {
		t.Fatalf("a failed select changed the page: %s", got)
	}
}

func TestSelectOptionMultiple(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	res := selectOpt(t, p, Target{Label: "Colors"}, OptionAny("r"), OptionAny("Green"))
	if !res.Multiple || len(res.Selected) != 2 || res.Selected[0].Value != "r" || res.Selected[1].Value != "g" {
		t.Fatalf("multiple: %+v", res)
	}
	if got := js(t, p, "window.colors"); got != `["r","g"]` {
		t.Fatalf("the page's change handler saw %s", got)
	}
	_, err := p.SelectOption(testCtx(t), Target{Selector: "#plan"}, []SelectWant{OptionAny("free"), OptionAny("pro")}, ActionOptions{})
	if KindOf(err) != KindStepValidation {
		t.Fatalf("two options on a single select: %v", err)
	}
}

func TestSelectOptionRefusesCustomComboboxAndResets(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	_, err := p.SelectOption(testCtx(t), Target{Selector: "#combo"}, []SelectWant{OptionAny("Apple")}, ActionOptions{})
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "not a native <select>") ||
		!strings.Contains(err.Error(), "click it to open it, then click the option") || !strings.Contains(err.Error(), `"Apple"`) {
		t.Fatalf("custom combobox: %v", err)
	}
	_, err = p.SelectOption(testCtx(t), Target{Selector: "#sticky"}, []SelectWant{OptionValue("b")}, ActionOptions{})
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "did not hold") {
		t.Fatalf("a select the page resets: %v", err)
	}
}

func setChecked(t *testing.T, p *Page, tg Target, want bool) *CheckResult {
	t.Helper()
	res, err := p.SetChecked(testCtx(t), tg, want, ActionOptions{})
	if err != nil {
		t.Fatalf("check %s = %v: %v", tg, want, err)
	}
	if res.Checked != want {
		t.Fatalf("check %s = %v: %+v", tg, want, res)
	}
	return res
}

func TestCheckPlainCheckbox(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	res := setChecked(t, p, Target{Selector: "#news"}, true)
	if !res.Changed || res.Role != "checkbox" {
		t.Fatalf("check: %+v", res)
	}
	if res = setChecked(t, p, Target{Label: "Newsletter"}, true); res.Changed {
		t.Fatalf("check of a checked box clicked it: %+v", res)
	}
	setChecked(t, p, Target{Label: "Newsletter"}, false)
	if got := js(t, p, "[document.getElementById('news').checked, window.log]"); got != `[false,["news:true","news:false"]]` {
		t.Fatalf("page state = %s", got)
	}
}

func TestCheckHiddenStyledCheckboxes(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	res := setChecked(t, p, Target{Label: "Accept terms"}, true)
	if !res.Changed || res.Via != "label" {
		t.Fatalf("transparent checkbox: %+v", res)
	}
	setChecked(t, p, Target{Selector: "#dark"}, true)
	setChecked(t, p, Target{Text: "Dark mode"}, false)
	if got := js(t, p, "[document.getElementById('terms').checked, document.getElementById('dark').checked, window.log]"); got != `[true,false,["terms:true","dark:true","dark:false"]]` {
		t.Fatalf("page state = %s", got)
	}
}

func TestCheckSwitchRadioAndFailures(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	ctx := testCtx(t)
	res := setChecked(t, p, Target{Text: "Wi-Fi"}, true)
	if res.Role != "switch" || js(t, p, "document.getElementById('wifi').getAttribute('aria-checked')") != `"true"` {
		t.Fatalf("switch: %+v", res)
	}
	setChecked(t, p, Target{Selector: "#wifi"}, false)
	if got := js(t, p, "window.log"); got != `["wifi:true","wifi:false"]` {
		t.Fatalf("switch log = %s", got)
	}
	setChecked(t, p, Target{Label: "Large"}, true)
	if got := js(t, p, "document.querySelector('input[name=size]:checked').value"); got != `"l"` {
		t.Fatalf("radio = %s", got)
	}
	if _, err := p.SetChecked(ctx, Target{Label: "Large"}, false, ActionOptions{}); KindOf(err) != KindStepValidation {
		t.Fatalf("uncheck a radio: %v", err)
	}
	if _, err := p.SetChecked(ctx, Target{Label: "Locked"}, true, ActionOptions{}); KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "still unchecked") {
		t.Fatalf("a checkbox that refuses: %v", err)
	}
	if _, err := p.SetChecked(ctx, Target{Label: "Your name"}, true, ActionOptions{}); KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "not checkable") {
		t.Fatalf("check a text field: %v", err)
	}
}

func TestFocus(t *testing.T) {
	p, _ := openFixture(t, "forms2.html")
	ctx := testCtx(t)
	res, err := p.Focus(ctx, Target{Label: "Your name"}, ActionOptions{})
	if err != nil || !res.Focused || res.Element["role"] != "textbox" || res.Element["name"] != "Your name" {
		t.Fatalf("focus: %+v %v", res, err)
	}
	if got := js(t, p, "[window.focused, document.activeElement.id]"); got != `["name","name"]` {
		t.Fatalf("page focus = %s", got)
	}
	if _, err := p.Focus(ctx, Target{Selector: "#inner"}, ActionOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[document.activeElement.id, document.getElementById('host').shadowRoot.activeElement.id]"); got != `["host","inner"]` {
		t.Fatalf("focus in a shadow root = %s", got)
	}
	if _, err := p.Focus(ctx, Target{Selector: "#plain"}, ActionOptions{}); KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "cannot take focus") {
		t.Fatalf("focus a plain div: %v", err)
	}
}

// allowedFor is what the runtime would allow for these files: the working
// directory and the directory of each absolute path.
func allowedFor(t *testing.T, paths []string) []string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{wd}
	for _, p := range paths {
		if filepath.IsAbs(p) {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	return dirs
}

// uploadFiles writes files (name → content) in a new temporary directory,
// allowed for upload, and returns their paths.
func uploadFiles(t *testing.T, files ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := 0; i < len(files); i += 2 {
		path := filepath.Join(dir, files[i])
		if err := os.WriteFile(path, []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// pageTexts waits until the page has read the files of input id and
// returns their contents as JSON.
func pageTexts(t *testing.T, p *Page, id string) string {
	t.Helper()
	return js(t, p, `new Promise((resolve) => { const tick = () => window.texts['`+id+`'] ? resolve(window.texts['`+id+`']) : setTimeout(tick, 10); tick(); })`)
}

func upload(t *testing.T, p *Page, tg Target, paths ...string) *UploadResult {
	t.Helper()
	res, err := p.Upload(testCtx(t), tg, paths, UploadOptions{AllowedDirs: allowedFor(t, paths)})
	if err != nil {
		t.Fatalf("upload %s: %v", tg, err)
	}
	return res
}

func TestUploadFileInput(t *testing.T) {
	paths := uploadFiles(t, "a.txt", "alpha", "b.txt", "beta")
	p, _ := openFixture(t, "upload.html")
	res := upload(t, p, Target{Selector: "#file"}, paths[0])
	if res.Via != "input" || res.Count != 1 || res.Uploaded[0] != "a.txt" {
		t.Fatalf("upload: %+v", res)
	}
	if got := pageTexts(t, p, "file"); got != `["alpha"]` {
		t.Fatalf("the page read %s", got)
	}
	res = upload(t, p, Target{Label: "Several"}, paths...)
	if res.Count != 2 || pageTexts(t, p, "several") != `["alpha","beta"]` {
		t.Fatalf("multiple: %+v", res)
	}
	upload(t, p, Target{Selector: "#zone"}, paths[1])
	if got := pageTexts(t, p, "zone-input"); got != `["beta"]` {
		t.Fatalf("drop zone: %s", got)
	}
	res = upload(t, p, Target{Label: "Clearing"}, paths[0])
	if pageTexts(t, p, "clearing") != `["alpha"]` || len(res.Warnings) != 1 {
		t.Fatalf("an input the page clears: %+v", res)
	}
	_, err := p.Upload(testCtx(t), Target{Label: "Attachment"}, paths, UploadOptions{AllowedDirs: []string{filepath.Dir(paths[0])}})
	if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), "takes one file") {
		t.Fatalf("two files on a single input: %v", err)
	}
	// A relative path under the working directory is allowed. (The page
	// reads the file after the change event, with file.text(): the old
	// text is cleared so that pageTexts waits for the new one.)
	js(t, p, "delete window.texts.file")
	res = upload(t, p, Target{Label: "Attachment"}, "testdata/act/other.html")
	if res.Uploaded[0] != "other.html" || !strings.Contains(pageTexts(t, p, "file"), "Other page") {
		t.Fatalf("relative path: %+v", res)
	}
}

func TestUploadThroughFileChooser(t *testing.T) {
	paths := uploadFiles(t, "c.txt", "gamma")
	p, _ := openFixture(t, "upload.html")
	res := upload(t, p, Target{Text: "Upload a file"}, paths[0])
	if res.Via != "chooser" || res.Uploaded[0] != "c.txt" {
		t.Fatalf("chooser: %+v", res)
	}
	if got := pageTexts(t, p, "hidden-file"); got != `["gamma"]` {
		t.Fatalf("the page read %s", got)
	}
	upload(t, p, Target{Selector: "#dynamic"}, paths[0])
	if got := pageTexts(t, p, "dynamic"); got != `["gamma"]` {
		t.Fatalf("an input made on the fly read %s", got)
	}
	_, err := p.Upload(testCtx(t), Target{Selector: "#nothing"}, paths, UploadOptions{AllowedDirs: []string{filepath.Dir(paths[0])}})
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "opened no file chooser") {
		t.Fatalf("a button without a chooser: %v", err)
	}
}

func TestUploadRefusesPathsOutsideAllowedDirs(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("secret"), 0o644)
	allowed := t.TempDir()
	link := filepath.Join(allowed, "link.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(allowed, "sub"), 0o755)
	p, _ := openFixture(t, "upload.html")
	for _, c := range []struct{ path, want string }{
		{secret, "upload refused"},
		{link, "symbolic link"},
		{filepath.Join(allowed, "missing.txt"), "does not exist"},
		{filepath.Join(allowed, "sub"), "not a regular file"},
		{"../../etc/passwd", "upload refused"},
	} {
		_, err := p.Upload(testCtx(t), Target{Selector: "#file"}, []string{c.path}, UploadOptions{AllowedDirs: []string{allowed}})
		if KindOf(err) != KindStepValidation || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.path, err)
		}
		if c.want == "upload refused" && (!strings.Contains(err.Error(), UploadDirsEnv) || !strings.Contains(err.Error(), allowed)) {
			t.Errorf("the refusal does not say how to allow a directory: %v", err)
		}
	}
	if got := js(t, p, "document.getElementById('file').files.length"); got != "0" {
		t.Fatalf("a refused file reached the page: %s", got)
	}
}

func asError(err error, out **Error) bool {
	e, ok := err.(*Error)
	*out = e
	return ok
}

// TestSelectOptionWaitsForOptions selects options that the page loads or
// enables after a moment (a country list fetched after load, a city
// <select> re-rendered as a new element, an option enabled once
// availability is known): each selection waits for its option and fires
// change exactly once.
func TestSelectOptionWaitsForOptions(t *testing.T) {
	p, _ := openFixture(t, "shipping.html")
	o := ActionOptions{Timeout: 15 * time.Second}
	for _, c := range []struct {
		tg   Target
		want SelectWant
	}{
		{Target{Label: "Country"}, OptionLabel("Canada")},
		{Target{Selector: "#city"}, OptionAny("Vancouver")},
		{Target{Label: "Delivery"}, OptionValue("exp")},
	} {
		if _, err := p.SelectOption(testCtx(t), c.tg, []SelectWant{c.want}, o); err != nil {
			t.Fatalf("select %s in %s: %v", c.want, c.tg, err)
		}
	}
	got := js(t, p, "[document.getElementById('country').value, document.getElementById('city').value, document.getElementById('speed').value, window.changes]")
	if want := `["ca","yvr","exp",["country:ca","city:yvr","speed:exp"]]`; got != want {
		t.Fatalf("page state = %s, want %s", got, want)
	}
}

// TestSelectOptionTimesOutNamingOptions: an option that never appears or
// stays disabled fails after the timeout, naming what can be chosen, and
// changes nothing.
func TestSelectOptionTimesOutNamingOptions(t *testing.T) {
	p, _ := openFixture(t, "shipping.html")
	ctx := testCtx(t)
	o := ActionOptions{Timeout: 2 * time.Second}
	_, err := p.SelectOption(ctx, Target{Label: "Country"}, []SelectWant{OptionLabel("Atlantis")}, o)
	if KindOf(err) != KindElementNotFound || !strings.Contains(err.Error(), "waited") || !strings.Contains(err.Error(), `"Canada" (value "ca")`) {
		t.Fatalf("an option that never comes: %v", err)
	}
	_, err = p.SelectOption(ctx, Target{Label: "Delivery"}, []SelectWant{OptionLabel("Drone")}, o)
	if KindOf(err) != KindElementNotEditable || !strings.Contains(err.Error(), "disabled") || !strings.Contains(err.Error(), `enabled options: "Standard" (value "std"), "Express" (value "exp")`) {
		t.Fatalf("an option that stays disabled: %v", err)
	}
	if got := js(t, p, "[document.getElementById('country').value, document.getElementById('speed').value, window.changes]"); got != `["","std",[]]` {
		t.Fatalf("failed selects changed the page: %s", got)
	}
}
