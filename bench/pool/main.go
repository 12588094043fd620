// Command pool measures throughput with many agents at once: N agents (each
// its own state dir, as separate agents are) each open their own tab and
// run S click-and-read steps (a click whose answer carries the page state
// the agent reads next), all in parallel, each step a whole cdp-skill
// process as an agent runs it. It reports steps per second, p50/p95 step
// latency and the answers that were wrong (a click counted in another
// agent's page, a lost tab), on one local Chrome and, with -pool, on a
// browser pool (browserless), and with -ab on agent-browser with N
// sessions. Targets run in turn for each N.
//
//	go run ./bench/pool -agents 1,4 -steps 20
//	go run ./bench/pool -agents 1,4,8,16 -steps 50 -pool 'ws://127.0.0.1:3000?token=…&timeout=600000'
//	go run ./bench/pool -agents 8 -steps 50 -ab agent-browser   # npm i -g agent-browser@0.41.2
//
// The pool must allow N sessions at once (browserless: CONCURRENT ≥ N).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cdp-skill/cdp-skill/bench/internal/benchcli"
)

type config struct {
	agents []int
	steps  int
	bin    string
	pool   string
	ab     string
	chrome string
}

func main() {
	var c config
	var agents string
	flag.StringVar(&agents, "agents", "1,4", "numbers of parallel agents, comma-separated")
	flag.IntVar(&c.steps, "steps", 20, "click-and-read steps per agent")
	flag.StringVar(&c.bin, "bin", "", "cdp-skill binary (default: build ./cmd/cdp-skill)")
	flag.StringVar(&c.pool, "pool", "", "a browser pool's endpoint, token included (empty: local Chrome only)")
	flag.StringVar(&c.ab, "ab", "", "agent-browser command (empty: skip it)")
	flag.StringVar(&c.chrome, "chrome", "/usr/bin/chromium", "Chromium for agent-browser")
	flag.Parse()
	for _, f := range strings.Split(agents, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			log.Fatalf("-agents: %q is not a number of agents", f)
		}
		c.agents = append(c.agents, n)
	}
	log.SetFlags(0)
	if err := run(c); err != nil {
		log.Fatal(err)
	}
}

// target is where agents run: how to open a tab and take one step.
type target struct {
	name string
	// open prepares agent i and returns its step function.
	open func(i int) (step func() (clicks int, err error), done func(), err error)
}

func run(c config) error {
	setup, err := benchcli.Start("bench-pool-", c.bin, benchcli.ServeCounter)
	if err != nil {
		return err
	}
	defer setup.Close()
	tmp, url, port := setup.Dir, setup.URL, setup.Port
	c.bin = setup.Bin
	chromeEnv := append(os.Environ(), "CDP_SKILL_STATE_DIR="+filepath.Join(tmp, "chrome"), "CDP_SKILL_HEADLESS=1")
	if _, err := benchcli.Run(c.bin, port, chromeEnv, "chrome", "status"); err != nil {
		return fmt.Errorf("launch Chrome: %w", err)
	}
	defer benchcli.Run(c.bin, port, chromeEnv, "chrome", "stop")

	seq := 0
	ours := func(name string, env func(dir string) []string) target {
		return target{name: name, open: func(i int) (func() (int, error), func(), error) {
			seq++
			dir := filepath.Join(tmp, fmt.Sprintf("agent-%d", seq))
			e := append(env(dir), "CDP_SKILL_STATE_DIR="+dir, "CDP_SKILL_HEADLESS=1")
			res, err := runJSON(c.bin, e, `{"steps":[{"openTab":"`+url+`"}]}`)
			if err != nil {
				return nil, nil, err
			}
			tab, _ := res["tab"].(string)
			step := func() (int, error) {
				res, err := runJSON(c.bin, e, `{"tab":"`+tab+`","steps":[{"click":"#a"},{"pageFunction":"window.c"}]}`)
				if err != nil {
					return 0, err
				}
				steps, _ := res["steps"].([]any)
				if len(steps) < 2 {
					return 0, fmt.Errorf("answer without the read: %v", res)
				}
				n, _ := steps[1].(map[string]any)["output"].(float64)
				return int(n), nil
			}
			done := func() {
				runJSON(c.bin, e, `{"steps":[{"closeTab":"`+tab+`"}]}`)
				if strings.Contains(strings.Join(e, "\n"), "CDP_SKILL_ENDPOINT=") {
					cmd := exec.Command(c.bin, "chrome", "stop") // ends the agent's pool session
					cmd.Env = e
					cmd.Run()
				}
			}
			return step, done, nil
		}}
	}
	targets := []target{ours("cdp-skill, one local Chrome", func(string) []string {
		return append(os.Environ(), "CDP_SKILL_PORT="+strconv.Itoa(port))
	})}
	if c.pool != "" {
		targets = append(targets, ours("cdp-skill, browserless pool", func(string) []string {
			return append(os.Environ(), "CDP_SKILL_ENDPOINT="+c.pool)
		}))
	}
	if c.ab != "" {
		targets = append(targets, target{name: "agent-browser, one session per agent", open: func(i int) (func() (int, error), func(), error) {
			seq++
			env := append(os.Environ(), "HOME="+filepath.Join(tmp, "abhome"), fmt.Sprintf("AGENT_BROWSER_SESSION=bench%d", seq),
				"AGENT_BROWSER_EXECUTABLE_PATH="+c.chrome, "AGENT_BROWSER_ARGS=--no-sandbox")
			if out, err := command(env, c.ab, "open", url); err != nil {
				return nil, nil, fmt.Errorf("agent-browser open: %v: %s", err, out)
			}
			clicks := 0
			step := func() (int, error) {
				if out, err := command(env, c.ab, "click", "#a"); err != nil {
					return 0, fmt.Errorf("agent-browser click: %v: %s", err, out)
				}
				out, err := command(env, c.ab, "snapshot", "-i")
				if err != nil {
					return 0, fmt.Errorf("agent-browser snapshot: %v: %s", err, out)
				}
				clicks++
				return clicks, nil // agent-browser's answers are not checked for counts
			}
			return step, func() { command(env, c.ab, "close") }, nil
		}})
	}
	fmt.Printf("%d click-and-read steps per agent, each a whole process (median of one run per N):\n", c.steps)
	fmt.Printf("  %-38s %6s %10s %9s %9s %7s\n", "target", "agents", "steps/s", "p50", "p95", "wrong")
	for _, n := range c.agents {
		for _, t := range targets {
			r, err := measure(t, n, c.steps)
			if err != nil {
				return fmt.Errorf("%s, %d agents: %w", t.name, n, err)
			}
			fmt.Printf("  %-38s %6d %10.1f %9s %9s %7d\n", t.name, n, r.rate, ms(r.p50), ms(r.p95), r.wrong)
		}
	}
	return nil
}

// result is one run of n agents.
type result struct {
	rate     float64
	p50, p95 time.Duration
	wrong    int
}

// measure runs n agents of t in parallel, steps each.
func measure(t target, n, steps int) (result, error) {
	type agent struct {
		step func() (int, error)
		done func()
	}
	agents := make([]agent, n)
	for i := range agents {
		step, done, err := t.open(i)
		if err != nil {
			return result{}, err
		}
		agents[i] = agent{step, done}
	}
	defer func() {
		for _, a := range agents {
			a.done()
		}
	}()
	var mu sync.Mutex
	var lat []time.Duration
	var wrong int
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for _, a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 1; k <= steps; k++ {
				s := time.Now()
				got, err := a.step()
				d := time.Since(s)
				mu.Lock()
				lat = append(lat, d)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil && got != k {
					wrong++ // a click landed elsewhere, twice, or not at all
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	if firstErr != nil {
		return result{}, firstErr
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return result{
		rate:  float64(n*steps) / wall.Seconds(),
		p50:   lat[len(lat)/2],
		p95:   lat[len(lat)*95/100],
		wrong: wrong,
	}, nil
}

func runJSON(bin string, env []string, input string) (map[string]any, error) {
	cmd := exec.Command(bin, input)
	cmd.Env = env
	out, err := cmd.Output()
	var res map[string]any
	if jerr := json.Unmarshal(out, &res); jerr != nil || res["status"] != "ok" {
		return nil, fmt.Errorf("cdp-skill %s: %v: %s", input, err, out)
	}
	return res, nil
}

func command(env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	return cmd.CombinedOutput()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }
