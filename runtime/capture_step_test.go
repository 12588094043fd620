package runtime

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCaptureStepsWriteFilesAndEmulate(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`capture.html"},
		{"viewport": "iphone-14"},
		{"screenshot": "phone.png"},
		{"screenshot": {"fullPage": true, "path": "shots/full.png"}},
		{"screenshot": {"selector": "#chart", "padding": 4, "format": "jpeg", "path": "chart"}},
		{"pdf": {"path": "report.pdf", "format": "A4", "margin": {"top": "1cm", "bottom": 0.5}}},
		{"cookies": {"clear": true, "set": [{"name": "session", "value": "s3cr3t"}, {"name": "theme", "value": "dark", "httpOnly": true}]}},
		{"cookies": "get"},
		{"geolocation": {"latitude": 51.5007, "longitude": -0.1246}},
		{"pageFunction": "() => window.where()"},
		{"viewport": "reset"},
		{"cookies": "clear"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	vp := stepOutput(t, out, 1)
	if vp["width"] != 390.0 || vp["height"] != 844.0 || vp["deviceScaleFactor"] != 3.0 || vp["mobile"] != true || vp["preset"] != "iphone-14" {
		t.Errorf("viewport output = %s", jsonString(vp))
	}
	phone := stepOutput(t, out, 2)
	if phone["path"] != filepath.Join(dir, "phone.png") || phone["width"] != 1170.0 || phone["height"] != 2532.0 || phone["format"] != "png" {
		t.Errorf("phone screenshot = %s", jsonString(phone))
	}
	full := stepOutput(t, out, 3)
	data, err := os.ReadFile(filepath.Join(dir, "shots", "full.png"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Height != 2700*3 || full["height"] != float64(cfg.Height) || full["bytes"] != float64(len(data)) {
		t.Errorf("full-page screenshot = %s, file %+v %v", jsonString(full), cfg, err)
	}
	if chart := stepOutput(t, out, 4); chart["path"] != filepath.Join(dir, "chart.jpeg") || chart["width"] != 128.0*3 || chart["height"] != 68.0*3 {
		t.Errorf("element screenshot = %s", jsonString(chart))
	}
	if doc := stepOutput(t, out, 5); doc["path"] != filepath.Join(dir, "report.pdf") || doc["pages"] != 3.0 || doc["bytes"].(float64) < 1000 {
		t.Errorf("pdf = %s", jsonString(doc))
	}
	if set := stepOutput(t, out, 6); set["set"] != 2.0 {
		t.Errorf("cookies set = %s", jsonString(set))
	}
	got := jsonString(stepOutput(t, out, 7))
	mustContain(t, got, `"count":2`, `"name":"session"`, `"value":"s3cr3t"`, `"httpOnly":true`)
	if geo := stepOutput(t, out, 8); geo["permission"] != "granted" || geo["latitude"] != 51.5007 {
		t.Errorf("geolocation = %s", jsonString(geo))
	}
	if got := jsonString(out.Steps[9].Output); got != `{"lat":51.5007,"lon":-0.1246}` {
		t.Errorf("the page located itself at %s", got)
	}
	if reset := stepOutput(t, out, 10); reset["reset"] != true || reset["deviceScaleFactor"] != 1.0 {
		t.Errorf("viewport reset = %s", jsonString(reset))
	}
	if cleared := stepOutput(t, out, 11); cleared["cleared"] != 2.0 {
		t.Errorf("cookies clear = %s", jsonString(cleared))
	}
}

func TestCaptureStepRefusesPathOutsideOutputDir(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	base := pagesURL(t)
	target := filepath.Join(outside, "evil.png")
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`capture.html"},
		{"screenshot": {"path": `+jsonString(target)+`}}
	]}`)
	closeTabAfter(t, out)
	if out.OK() || len(out.Steps) < 2 || out.Steps[1].ErrorType != "StepValidationError" {
		t.Fatalf("not refused: %s", out.JSON())
	}
	mustContain(t, out.Steps[1].Error, dir, "CDP_SKILL_OUTPUT_DIR")
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the refused screenshot exists: %v", err)
	}
	for step, want := range map[string]string{
		`{"viewport": "iphone-99"}`:                                "close names: iphone-",
		`{"viewport": {"reset": true, "width": 300}}`:              "reset takes nothing else",
		`{"viewport": {"width": 300}}`:                             "width and height",
		`{"screenshot": "s1e4"}`:                                   `{"screenshot":{"ref":"s1e4"}}`,
		`{"screenshot": {"fullPage": true, "selector": "#chart"}}`: "not several",
		`{"cookies": "eat"}`:                                       `"get" or "clear"`,
		`{"cookies": {"set": [{"value": "x"}]}}`:                   "needs a name",
		`{"geolocation": {"latitude": 10}}`:                        "needs latitude and longitude",
		`{"geolocation": "here"}`:                                  `"clear"`,
	} {
		bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+step+`]}`)
		if bad.OK() || len(bad.Steps) == 0 || bad.Steps[0].ErrorType != "StepValidationError" || !strings.Contains(bad.Steps[0].Error, want) {
			t.Errorf("%s: %s", step, bad.JSON())
		}
	}
	// A bad shape of a typed option is refused before any step runs.
	for step, want := range map[string]string{
		`{"screenshot": {"region": {"x": 0, "y": 0, "w": 5}}}`: `screenshot.region has no key "w"; valid: x, y, width, height`,
		`{"pdf": {"margin": {"middle": 1}}}`:                   `pdf.margin has no key "middle"; valid: top, bottom, left, right`,
		`{"pdf": {"paperWidth": "wide"}}`:                      `pdf.paperWidth "wide" is not a length`,
	} {
		bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+step+`]}`)
		if bad.Error == nil || bad.Error.Type != TypeValidation || !strings.Contains(bad.Error.Message, want) || len(bad.Steps) != 0 {
			t.Errorf("%s: %s", step, bad.JSON())
		}
	}
}

func TestCaptureStepRecipeAndLowering(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	base := pagesURL(t)
	src := `open_tab(args["base"] + "capture.html")
viewport(width = 600, height = 400, device_scale_factor = 2)
shot = screenshot("wide.png", full_page = True)
doc = pdf(page_ranges = "1-2", landscape = True)
cookies(set = {"name": "a", "value": "1"})
jar = cookies(get = {"name": "a"})
cookies(clear = True)
empty = cookies("get")
result = {"h": shot.height, "w": shot.width, "pages": doc.pages, "a": jar.cookies[0].value, "left": empty.count}
`
	out := runRecipe(t, Program{Source: []byte(src), Args: map[string]string{"base": base}})
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Result); got != `{"h":5400,"w":1200,"pages":2,"a":"1","left":0}` {
		t.Errorf("result = %s", got)
	}
	lowered := compileForTest(t, `{"tab":"t1","steps":[
		{"screenshot":{"fullPage":true,"path":"a.png"}},
		{"screenshot":{"region":{"x":0,"y":0,"width":10,"height":10}}},
		{"pdf":{"margin":{"top":"1cm"},"printBackground":false}},
		{"cookies":{"clear":{"domain":"example.com"}}},
		{"viewport":"pixel-7-landscape"},
		{"geolocation":"clear"}
	]}`)
	mustContain(t, lowered,
		`screenshot(full_page = True, path = "a.png")`,
		`screenshot(region = {"x": 0, "y": 0, "width": 10, "height": 10})`,
		`pdf(margin = {"top": "1cm"}, print_background = False)`,
		`cookies(clear = {"domain": "example.com"})`,
		`viewport("pixel-7-landscape")`,
		`geolocation("clear")`)
}

func TestCaptureStepRefusesForeignExtensionsAndHiddenPaths(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CDP_SKILL_OUTPUT_DIR", dir)
	files := map[string]string{"main.go": "package main\n", "go.mod": "module x\n", ".git/config": "[core]\n"}
	for name, content := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab": "`+base+`capture.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	for step, want := range map[string]string{
		`{"screenshot": "main.go"}`:          ".png, .jpg, .jpeg or .webp",
		`{"pdf": "go.mod"}`:                  "must end in .pdf",
		`{"pdf": ".git/config"}`:             "hidden",
		`{"screenshot": {"path": ".git/x"}}`: "hidden",
	} {
		bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+step+`]}`)
		if bad.OK() || len(bad.Steps) == 0 || bad.Steps[0].ErrorType != "StepValidationError" || !strings.Contains(bad.Steps[0].Error, want) {
			t.Errorf("%s: %s", step, bad.JSON())
		}
	}
	for name, content := range files {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != content {
			t.Errorf("%s changed: %q %v", name, data, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "x.png")); !os.IsNotExist(err) {
		t.Errorf("a screenshot went into .git: %v", err)
	}
	ok := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"screenshot": "shot"}, {"pdf": "doc"}]}`)
	mustOK(t, ok)
	if shot, doc := stepOutput(t, ok, 0), stepOutput(t, ok, 1); shot["path"] != filepath.Join(dir, "shot.png") || doc["path"] != filepath.Join(dir, "doc.pdf") {
		t.Errorf("names without extension: %s", ok.JSON())
	}
}

func TestCaptureStepViewportResetTakesNothingElse(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab": "`+base+`capture.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	for _, src := range []string{
		`viewport("reset", width = 300)`,
		`viewport("reset", height = 300, mobile = True)`,
		`viewport(reset = True, width = 300)`,
		`viewport(reset = True, user_agent = "x")`,
		`viewport(reset = True, preset = "iphone-14")`,
	} {
		bad := runRecipe(t, Program{Tab: out.Tab, Source: []byte(src + "\n")})
		if bad.OK() || !strings.Contains(string(bad.JSON()), "reset takes nothing else") {
			t.Errorf("%s: %s", src, bad.JSON())
		}
	}
	for _, src := range []string{`viewport("reset")`, `viewport(reset = True)`, `viewport(preset = "reset")`, `viewport("reset", reset = True)`} {
		good := runRecipe(t, Program{Tab: out.Tab, Source: []byte(src + "\n")})
		mustOK(t, good)
		if res := stepOutput(t, good, 0); res["reset"] != true {
			t.Errorf("%s: %s", src, good.JSON())
		}
	}
	bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"viewport": {"reset": true, "width": 300}}]}`)
	if bad.OK() || len(bad.Steps) == 0 || bad.Steps[0].ErrorType != "StepValidationError" || !strings.Contains(bad.Steps[0].Error, "width") {
		t.Errorf("JSON reset with width: %s", bad.JSON())
	}
}
