// Command step times one agent step — a click and the page state the agent
// reads next — interleaved on the same Chromium and page: cdp-skill's click
// under each capture preset against agent-browser's `click` + `snapshot -i`
// (each a whole process, as an agent runs them), and prints medians and the
// ratios. The cdp-skill variants go through the resident process that the
// first command starts (as an agent's do), except the one run with
// CDP_SKILL_RESIDENT=0. With -breakdown it also times the parts of a cdp-skill step in
// process (connect, attach, engine, click, settle, capture, screenshot).
//
//	npm i -g agent-browser@0.41.2
//	go run ./bench/step -n 20 -breakdown
//	go run ./bench/step -n 30 -vs /tmp/cdp-skill-main   # also a baseline build, same rounds
//	go run ./bench/step -n 40 -gap 120ms               # steps spaced as an agent sends them
//
// Needs /usr/bin/chromium (or -chrome). The machine's load moves single
// runs: read the medians, and the pairwise ratios (each round runs every
// variant once, in turn).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/bench/internal/benchcli"
)

type config struct {
	n         int
	bin       string
	ab        string
	chrome    string
	breakdown bool
	root      string
	vs        string
	gap       time.Duration
}

func main() {
	var c config
	flag.IntVar(&c.n, "n", 15, "interleaved rounds")
	flag.StringVar(&c.bin, "bin", "", "cdp-skill binary (default: build ./cmd/cdp-skill)")
	flag.StringVar(&c.ab, "ab", "agent-browser", "agent-browser command (empty: skip it)")
	flag.StringVar(&c.chrome, "chrome", "/usr/bin/chromium", "Chromium for agent-browser's environment")
	flag.BoolVar(&c.breakdown, "breakdown", false, "also time the parts of a step in process")
	flag.StringVar(&c.vs, "vs", "", "a second cdp-skill binary (e.g. main's build) whose default click and no-op step run in the same rounds")
	flag.DurationVar(&c.gap, "gap", 0, "pause after each step, as an agent thinks between steps (0: back to back; then a step can overlap the work the previous one does after its answer, such as the screenshot)")
	flag.Parse()
	log.SetFlags(0)
	if err := run(c); err != nil {
		log.Fatal(err)
	}
}

func run(c config) error {
	setup, err := benchcli.Start("bench-step-", c.bin, benchcli.ServeCounter)
	if err != nil {
		return err
	}
	defer setup.Close()
	tmp, url, port := setup.Dir, setup.URL, setup.Port
	c.bin = setup.Bin
	// Clipped, so each variant's append below gets its own copy (appending
	// in place would give every variant the last variant's setting).
	ours := &cli{bin: c.bin, port: port, env: slices.Clip(append(os.Environ(),
		"CDP_SKILL_STATE_DIR="+filepath.Join(tmp, "state"), "CDP_SKILL_HEADLESS=1"))}
	defer ours.run(`chrome`, `stop`)
	// Each variant drives its own tab: the default preset's screenshot is
	// written just after its answer, with the tab held, and a variant
	// running next on the same tab would pay for it.
	newTab := func() (string, error) {
		open, err := ours.json(`{"steps":[{"openTab":"` + url + `"}]}`)
		if err != nil {
			return "", err
		}
		tab, _ := open["tab"].(string)
		if tab == "" {
			return "", fmt.Errorf("openTab answered without a tab: %v", open)
		}
		return tab, nil
	}
	var tabs []string
	for range 7 {
		tab, err := newTab()
		if err != nil {
			return err
		}
		tabs = append(tabs, tab)
	}
	tab := tabs[0]
	// A tab opened with openTab's port, driven with no --port and no
	// CDP_SKILL_PORT: its commands must take the same warm path.
	portTab, err := openWithPort(ours, url)
	if err != nil {
		return err
	}
	click := func(tab string) string { return `{"tab":"` + tab + `","steps":[{"click":"#a"}]}` }
	variants := []variant{
		{name: "cdp-skill click (default capture)", argv: ours.argv(click(tabs[0])), env: ours.env},
		{name: "cdp-skill click (compact)", argv: ours.argv(click(tabs[1])), env: append(ours.env, "CDP_SKILL_CAPTURE=compact")},
		{name: "cdp-skill click (none)", argv: ours.argv(click(tabs[2])), env: append(ours.env, "CDP_SKILL_CAPTURE=none")},
		{name: "cdp-skill no-op step (whole process)", argv: ours.argv(`{"tab":"` + tabs[3] + `","steps":[{"sleep":0}]}`), env: ours.env},
		{name: "cdp-skill click (default, no resident process)", argv: ours.argv(click(tabs[4])), env: append(ours.env, "CDP_SKILL_RESIDENT=0")},
		{name: "cdp-skill click (tab of openTab's port, no --port)", argv: []string{ours.bin, click(portTab)}, env: ours.env},
		{name: "cdp-skill help (the process alone)", argv: ours.argv("help"), env: ours.env},
	}
	if c.vs != "" {
		theirs := &cli{bin: c.vs, port: port, env: ours.env}
		variants = append(variants,
			variant{name: "baseline click (default capture)", argv: theirs.argv(click(tabs[5])), env: theirs.env},
			variant{name: "baseline no-op step (whole process)", argv: theirs.argv(`{"tab":"` + tabs[6] + `","steps":[{"sleep":0}]}`), env: theirs.env})
	}
	if c.ab != "" {
		abEnv := append(os.Environ(), "HOME="+filepath.Join(tmp, "abhome"), "AGENT_BROWSER_SESSION=benchstep",
			"AGENT_BROWSER_EXECUTABLE_PATH="+c.chrome, "AGENT_BROWSER_ARGS=--no-sandbox")
		ab := variant{name: "agent-browser click + snapshot -i", env: abEnv,
			argvs: [][]string{{c.ab, "click", "#a"}, {c.ab, "snapshot", "-i"}}}
		if out, err := exec.Command(c.ab, "--version").Output(); err == nil {
			ab.name += " (" + strings.TrimSpace(string(out)) + ")"
		}
		setup := exec.Command(c.ab, "--cdp", strconv.Itoa(port), "open", url)
		setup.Env = abEnv
		if out, err := setup.CombinedOutput(); err != nil {
			return fmt.Errorf("agent-browser open: %v: %s", err, out)
		}
		defer func() {
			cl := exec.Command(c.ab, "close")
			cl.Env = abEnv
			cl.Run()
		}()
		variants = append(variants, ab)
	}
	if err := interleave(variants, c.n, c.gap); err != nil {
		return err
	}
	fmt.Printf("tab of openTab's port / port on the command line, pairwise median click: %.2f×\n", pairRatio(variants[5], variants[0]))
	if c.vs != "" {
		// variants 0 and 3 are this build's default click and no-op
		// step; 7 and 8 the baseline's.
		fmt.Printf("this build / baseline, pairwise median: click (default) %.2f×, no-op step %.2f×\n",
			pairRatio(variants[0], variants[7]), pairRatio(variants[3], variants[8]))
	}
	if c.breakdown {
		return breakdown(ours, tab, c.n)
	}
	return nil
}

// variant is one timed step: one process, or several run in sequence.
type variant struct {
	name  string
	argv  []string
	argvs [][]string
	env   []string
	times []time.Duration
}

func (v *variant) once() (time.Duration, error) {
	runs := v.argvs
	if runs == nil {
		runs = [][]string{v.argv}
	}
	start := time.Now()
	for _, argv := range runs {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = v.env
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("%s: %v: %s", v.name, err, out)
		}
	}
	return time.Since(start), nil
}

// interleave runs every variant once per round, two warm-up rounds first,
// and prints the medians and each variant's median pairwise ratio to the
// last (the yardstick).
func interleave(vs []variant, n int, gap time.Duration) error {
	for round := -2; round < n; round++ {
		for i := range vs {
			d, err := vs[i].once()
			if err != nil {
				return err
			}
			time.Sleep(gap)
			if round >= 0 {
				vs[i].times = append(vs[i].times, d)
			}
		}
	}
	base := vs[len(vs)-1]
	fmt.Printf("one step, whole processes, %d interleaved rounds, %v between steps (median, min–max):\n", n, gap)
	for _, v := range vs {
		line := fmt.Sprintf("  %-48s %7s  (%s–%s)", v.name, ms(median(v.times)), ms(minOf(v.times)), ms(maxOf(v.times)))
		if len(vs) > 1 && v.name != base.name {
			var ratios []float64
			for i := range v.times {
				ratios = append(ratios, float64(v.times[i])/float64(base.times[i]))
			}
			sort.Float64s(ratios)
			line += fmt.Sprintf("  ratio to last %.2f×", ratios[len(ratios)/2])
		}
		fmt.Println(line)
	}
	return nil
}

// openWithPort opens url in a tab with openTab's port (the command line
// and environment name no port) and returns its alias.
func openWithPort(c *cli, url string) (string, error) {
	cmd := exec.Command(c.bin, `{"steps":[{"openTab":{"url":"`+url+`","port":`+strconv.Itoa(c.port)+`}}]}`)
	cmd.Env = c.env
	out, err := cmd.Output()
	var res map[string]any
	json.Unmarshal(out, &res)
	tab, _ := res["tab"].(string)
	if tab == "" {
		return "", fmt.Errorf("openTab with a port: %v: %s", err, out)
	}
	return tab, nil
}

// pairRatio is the median of a's time over b's, round by round.
func pairRatio(a, b variant) float64 {
	var ratios []float64
	for i := range a.times {
		ratios = append(ratios, float64(a.times[i])/float64(b.times[i]))
	}
	sort.Float64s(ratios)
	return ratios[len(ratios)/2]
}

// cli runs the cdp-skill binary against the bench's Chrome.
type cli struct {
	bin  string
	port int
	env  []string
}

func (c *cli) argv(args ...string) []string {
	return append([]string{c.bin, "--port", strconv.Itoa(c.port)}, args...)
}

func (c *cli) run(args ...string) ([]byte, error) {
	return benchcli.Run(c.bin, c.port, c.env, args...)
}

func (c *cli) json(command string) (map[string]any, error) {
	out, err := c.run(command)
	var res map[string]any
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		return nil, fmt.Errorf("cdp-skill %s: %v %v: %s", command, err, jerr, out)
	}
	if res["status"] != "ok" {
		return nil, fmt.Errorf("cdp-skill %s: %s", command, out)
	}
	return res, nil
}

func median(ds []time.Duration) time.Duration { s := sorted(ds); return s[len(s)/2] }
func minOf(ds []time.Duration) time.Duration  { return sorted(ds)[0] }
func maxOf(ds []time.Duration) time.Duration  { s := sorted(ds); return s[len(s)-1] }

func sorted(ds []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
