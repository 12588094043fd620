// Command bytes measures the bytes an agent reads per step — the whole
// answer of one command — on realistic fixture pages (header, sidebar,
// footer, 100+ elements), for a navigation, a fill and a click, with
// cdp-skill's default capture, against agent-browser's action output plus
// `snapshot -i` (what an agent driving it reads to go on). It also checks
// that every ref the main content shows in the viewport is in cdp-skill's
// answer (nothing of the changed region lost to the scoping).
//
//	go run ./bench/bytes            # needs agent-browser (0.41.2) on PATH
//	go run ./bench/bytes -ab ''     # cdp-skill only
//	go run ./bench/bytes -tasks     # eleven tasks on the fixture shop (tasks.go)
//
// Needs /usr/bin/chromium (or -chrome). Byte counts do not depend on the
// machine's load. BENCH_BYTES_DUMP=dir writes each cdp-skill answer there;
// BENCH_BYTES_PAGES=dir writes the fixture pages.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/cdp-skill/cdp-skill/bench/internal/benchcli"
)

type config struct {
	bin, ab, chrome string
	tasks           bool
	pages           string
}

func main() {
	var c config
	flag.StringVar(&c.bin, "bin", "", "cdp-skill binary (default: build ./cmd/cdp-skill)")
	flag.StringVar(&c.ab, "ab", "agent-browser", "agent-browser command (empty: skip it)")
	flag.StringVar(&c.chrome, "chrome", "/usr/bin/chromium", "Chromium for agent-browser")
	flag.BoolVar(&c.tasks, "tasks", false, "do the tasks of tasks.go on the fixture shop instead of single steps")
	flag.StringVar(&c.pages, "pages", "runtime/testdata/pages", "the fixture shop's directory (-tasks)")
	flag.Parse()
	log.SetFlags(0)
	if err := run(c); err != nil {
		log.Fatal(err)
	}
}

// row is one measured step.
type row struct {
	page, step       string
	elements, active int
	ours             int
	abAction, abSnap int
	missing          []string
}

func run(c config) error {
	if d := os.Getenv("BENCH_BYTES_PAGES"); d != "" {
		for _, p := range pages() {
			os.WriteFile(filepath.Join(d, p.name+".html"), []byte(chrome(p)), 0o644)
		}
	}
	setup, err := benchcli.Start("bench-bytes-", c.bin, serve)
	if err != nil {
		return err
	}
	defer setup.Close()
	tmp, base, port := setup.Dir, setup.URL, setup.Port
	c.bin = setup.Bin
	ours := &cli{bin: c.bin, port: port, env: append(os.Environ(),
		"CDP_SKILL_STATE_DIR="+filepath.Join(tmp, "state"), "CDP_SKILL_HEADLESS=1", "CDP_SKILL_OUTPUT_DIR="+tmp)}
	defer ours.run(`chrome`, `stop`)
	open, err := ours.json(`{"steps":[{"openTab":"about:blank"}]}`)
	if err != nil {
		return err
	}
	tab, _ := open["tab"].(string)
	var ab *abCLI
	if c.ab != "" {
		ab = &abCLI{cmd: c.ab, env: append(os.Environ(), "HOME="+filepath.Join(tmp, "abhome"), "AGENT_BROWSER_SESSION=benchbytes",
			"AGENT_BROWSER_EXECUTABLE_PATH="+c.chrome, "AGENT_BROWSER_ARGS=--no-sandbox")}
		defer ab.run("close")
	}
	if c.tasks {
		return runTasks(ours, ab, c.pages)
	}
	var rows []row
	for _, p := range pages() {
		url := base + p.name + ".html"
		steps := []struct {
			name, ours string
			ab         []string
		}{
			{"navigate", `{"goto":"` + url + `"}`, []string{"open", url}},
			{"fill", `{"fill":{"selector":"#bench-fill","value":"spring"}}`, []string{"fill", "#bench-fill", "spring"}},
			{"click", `{"click":"#bench-click"}`, []string{"click", "#bench-click"}},
		}
		var elements, active int
		for _, st := range steps {
			out, err := ours.raw(`{"tab":"` + tab + `","steps":[` + st.ours + `]}`)
			if err != nil {
				return fmt.Errorf("%s %s: %w", p.name, st.name, err)
			}
			if st.name == "navigate" {
				if elements, active, err = ours.count(tab); err != nil {
					return err
				}
			}
			r := row{page: p.name, step: st.name, elements: elements, active: active, ours: len(out)}
			if d := os.Getenv("BENCH_BYTES_DUMP"); d != "" {
				os.WriteFile(filepath.Join(d, p.name+"-"+st.name+".json"), out, 0o644)
			}
			if r.missing, err = ours.missingRefs(tab, out); err != nil {
				return err
			}
			if ab != nil {
				act, err := ab.run(st.ab...)
				if err != nil {
					return fmt.Errorf("agent-browser %s: %w", strings.Join(st.ab, " "), err)
				}
				snap, err := ab.run("snapshot", "-i")
				if err != nil {
					return fmt.Errorf("agent-browser snapshot -i: %w", err)
				}
				r.abAction, r.abSnap = len(act), len(snap)
			}
			rows = append(rows, r)
		}
	}
	report(rows, ab != nil)
	return nil
}

func report(rows []row, withAB bool) {
	fmt.Println("| page | elements (interactive) | step | cdp-skill answer | agent-browser action + snapshot -i | agent-browser snapshot -i | ratio to snapshot -i | main refs missing |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|---:|")
	var ratios, totals []float64
	missing := 0
	for _, r := range rows {
		ratio := "–"
		if withAB && r.abSnap > 0 {
			x := float64(r.ours) / float64(r.abSnap)
			ratios = append(ratios, x)
			totals = append(totals, float64(r.ours)/float64(r.abAction+r.abSnap))
			ratio = fmt.Sprintf("%.2f×", x)
		}
		missing += len(r.missing)
		fmt.Printf("| %s | %d (%d) | %s | %d B | %d B | %d B | %s | %d |\n", r.page, r.elements, r.active, r.step, r.ours, r.abAction+r.abSnap, r.abSnap, ratio, len(r.missing))
	}
	if len(ratios) > 0 {
		fmt.Printf("\nmedian ratio to agent-browser snapshot -i: %.2f× (to action + snapshot -i: %.2f×) over %d steps\n", median(ratios), median(totals), len(ratios))
	}
	fmt.Printf("refs of the main content in the viewport missing from cdp-skill's answer: %d\n", missing)
	for _, r := range rows {
		if len(r.missing) > 0 {
			fmt.Printf("  %s %s: %s\n", r.page, r.step, strings.Join(r.missing, ", "))
		}
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cli runs the cdp-skill binary against the bench's Chrome.
type cli struct {
	bin  string
	port int
	env  []string
}

func (c *cli) run(args ...string) ([]byte, error) {
	return benchcli.Run(c.bin, c.port, c.env, args...)
}

// raw runs a command and returns its answer as printed.
func (c *cli) raw(command string) ([]byte, error) {
	out, err := c.run(command)
	var res map[string]any
	if jerr := json.Unmarshal(out, &res); jerr != nil || res["status"] != "ok" {
		return nil, fmt.Errorf("cdp-skill %s: %v: %s", command, err, out)
	}
	return out, nil
}

func (c *cli) json(command string) (map[string]any, error) {
	out, err := c.raw(command)
	if err != nil {
		return nil, err
	}
	var res map[string]any
	return res, json.Unmarshal(out, &res)
}

// quiet runs a read-only command without the post-command capture.
func (c *cli) quiet(command string) (map[string]any, error) {
	cmd := exec.Command(c.bin, "--port", strconv.Itoa(c.port), command)
	cmd.Env = append(c.env, "CDP_SKILL_CAPTURE=none")
	out, err := cmd.Output()
	var res map[string]any
	if jerr := json.Unmarshal(out, &res); jerr != nil || res["status"] != "ok" {
		return nil, fmt.Errorf("cdp-skill %s: %v: %s", command, err, out)
	}
	return res, nil
}

// count returns the page's element count and its interactive elements.
func (c *cli) count(tab string) (int, int, error) {
	res, err := c.quiet(`{"tab":"` + tab + `","steps":[{"pageFunction":"[document.querySelectorAll('*').length, document.querySelectorAll('a[href],button,input,select,textarea,[role=tab]').length]"}]}`)
	if err != nil {
		return 0, 0, err
	}
	steps, _ := res["steps"].([]any)
	st, _ := steps[0].(map[string]any)
	n, _ := st["output"].([]any)
	if len(n) != 2 {
		return 0, 0, fmt.Errorf("element count: %v", res)
	}
	return int(n[0].(float64)), int(n[1].(float64)), nil
}

var refPattern = regexp.MustCompile(`\[ref=(s\d+e\d+)\]`)

// missingRefs lists the refs a main-scoped viewport snapshot shows that
// the answer does not carry.
func (c *cli) missingRefs(tab string, answer []byte) ([]string, error) {
	res, err := c.quiet(`{"tab":"` + tab + `","steps":[{"snapshot":{"viewportOnly":true}}]}`)
	if err != nil {
		return nil, err
	}
	steps, _ := res["steps"].([]any)
	st, _ := steps[0].(map[string]any)
	out, _ := st["output"].(map[string]any)
	yaml, _ := out["yaml"].(string)
	var missing []string
	for _, m := range refPattern.FindAllStringSubmatch(yaml, -1) {
		if !strings.Contains(string(answer), "ref="+m[1]+"]") {
			missing = append(missing, m[1])
		}
	}
	return missing, nil
}

// abCLI runs agent-browser in its own browser.
type abCLI struct {
	cmd string
	env []string
}

func (a *abCLI) run(args ...string) ([]byte, error) {
	cmd := exec.Command(a.cmd, args...)
	cmd.Env = a.env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, out)
	}
	return out, nil
}

func serve() (string, func(), error) {
	byName := map[string]string{}
	for _, p := range pages() {
		byName["/"+p.name+".html"] = chrome(p)
	}
	return benchcli.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		html, ok := byName[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(html))
	}))
}
