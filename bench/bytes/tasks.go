package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cdp-skill/cdp-skill/bench/internal/benchcli"
)

// A task is one job on the fixture shop (runtime/testdata/pages), done
// with each tool the way its own docs teach: cdp-skill's commands (each
// answer carries the page), and agent-browser's core loop (open, snapshot
// -i, act on @refs, snapshot again; `snapshot -c` to read text). want is
// text both tools' answers must show; check is page JavaScript that must
// be true afterwards in both browsers (read outside the count).
type task struct {
	name  string
	ours  []string
	ab    [][]string
	want  string
	check string
}

// tasks are the jobs (in the two late-dialog tasks agent-browser's first
// snapshot comes before the dialog: its agent sees none, waits and looks
// again); {base} is the site's URL, {tab} our tab. In ab
// steps, an argument "@role:name" is the ref the last snapshot gives the
// element of that role and name.
func tasks() []task {
	goto_ := func(page string) string { return `{"tab":"{tab}","steps":[{"goto":"{base}` + page + `"}]}` }
	cmd := func(steps string) string { return `{"tab":"{tab}","steps":[` + steps + `]}` }
	open := func(page string) []string { return []string{"open", "{base}" + page} }
	snapI, snapC := []string{"snapshot", "-i"}, []string{"snapshot", "-c"}
	return []task{
		{name: "count the products", ours: []string{goto_("shop/index.html")},
			ab: [][]string{open("shop/index.html"), snapC}, want: "12 results", check: "true"},
		{name: "filter by a hover-menu category",
			ours: []string{goto_("shop/index.html"), cmd(`{"hover":{"text":"Products"}}`), cmd(`{"click":{"text":"Smart bulbs"}}`)},
			ab:   [][]string{open("shop/index.html"), snapI, {"hover", "@link:Products"}, snapI, {"click", "@link:Smart bulbs"}, snapC},
			want: "Showing 4 smart bulbs", check: "window.filters === 1"},
		{name: "add two lamps to the cart",
			ours: []string{goto_("shop/product.html"), cmd(`{"fill":{"label":"Quantity","value":"2"}},{"click":{"text":"Add to cart"}}`)},
			ab:   [][]string{open("shop/product.html"), snapI, {"fill", "@spinbutton:Quantity", "2"}, {"click", "@button:Add to cart"}, snapC},
			want: "Added 2 × Brass Clip Lamp", check: "window.adds === 1"},
		{name: "checkout: what is missing",
			ours: []string{goto_("shop/checkout.html"), cmd(`{"click":{"text":"Continue to shipping"}}`)},
			ab:   [][]string{open("shop/checkout.html"), snapI, {"click", "@button:Continue to shipping"}, snapC},
			want: "Please complete: Full name, Street, City", check: "window.submits === 1"},
		{name: "checkout: fill the address",
			ours: []string{goto_("shop/checkout.html"), cmd(`{"fill":{"label":"Full name","value":"Ann Lee"}},{"fill":{"label":"Street","value":"1 Main St"}},{"fill":{"label":"City","value":"Oslo"}},{"click":{"text":"Continue to shipping"}}`)},
			ab: [][]string{open("shop/checkout.html"), snapI, {"fill", "@textbox:Full name", "Ann Lee"}, {"fill", "@textbox:Street", "1 Main St"},
				{"fill", "@textbox:City", "Oslo"}, {"click", "@button:Continue to shipping"}, snapI},
			want: "Oslo", check: "window.submits === 1 && document.getElementById('summary').textContent === ''"},
		{name: "download the manual from a tab",
			ours: []string{goto_("shop/help.html"), cmd(`{"click":{"text":"Specs"}}`), cmd(`{"click":{"text":"Download manual"}}`)},
			ab:   [][]string{open("shop/help.html"), snapI, {"click", "@tab:Specs"}, snapI, {"click", "@button:Download manual"}, snapC},
			want: "Manual downloaded", check: "window.manuals === 1"},
		{name: "open the collapsed questions",
			ours: []string{goto_("shop/help.html"), cmd(`{"click":{"text":"More questions"}}`)},
			ab:   [][]string{open("shop/help.html"), snapI, {"click", "@button:More questions"}, snapI},
			want: "Warranty terms", check: "!document.getElementById('more').hidden"},
		{name: "price of order 150 in a 200-row table",
			ours: []string{goto_("shop/orders.html"), cmd(`{"snapshotSearch":{"text":"Order 150"}}`)},
			ab:   [][]string{open("shop/orders.html"), snapC},
			want: "€450.00", check: "true"},
		{name: "accept a late consent dialog",
			ours: []string{goto_("late/consent.html"), cmd(`{"click":{"text":"Accept all"}}`)},
			ab:   [][]string{open("late/consent.html"), snapI, {"wait", "1000"}, snapI, {"click", "@button:Accept all"}, snapI},
			want: "Read more", check: "window.cmpChoice === 'Accept all'"},
		{name: "dismiss a newsletter modal",
			ours: []string{goto_("late/newsletter.html"), cmd(`{"click":{"text":"No thanks"}}`)},
			ab:   [][]string{open("late/newsletter.html"), snapI, {"wait", "1000"}, snapI, {"click", "@button:No thanks"}, snapI},
			want: "Shop desk lamps", check: "document.getElementById('news').returnValue === 'close'"},
		{name: "failed sign-in: read the errors",
			ours: []string{goto_("acme/login.html"), cmd(`{"click":{"text":"Accept all"}},{"fill":{"label":"Email","value":"ann@example.com"}},{"click":{"text":"Sign in","exact":true}}`)},
			ab: [][]string{open("acme/login.html"), snapI, {"click", "@button:Accept all"}, {"fill", "@textbox:Email", "ann@example.com"},
				{"click", "@button:Sign in"}, snapC},
			want: "Password must be at least 6 characters", check: "true"},
	}
}

// taskRow is one task's cost with each tool.
type taskRow struct {
	name               string
	ourCalls, ourBytes int
	abCalls, abBytes   int
}

var abLine = regexp.MustCompile(`(?m)^\s*- (\w+) "([^"]*)"[^\n]*?ref=(e\d+)`)

// abRef finds the ref of "@role:name" in a snapshot.
func abRef(snap, spec string) (string, error) {
	role, name, _ := strings.Cut(strings.TrimPrefix(spec, "@"), ":")
	for _, m := range abLine.FindAllStringSubmatch(snap, -1) {
		if m[1] == role && m[2] == name {
			return "@" + m[3], nil
		}
	}
	return "", fmt.Errorf("no %s %q in the snapshot:\n%s", role, name, snap)
}

// runTasks does every task with both tools and prints the table.
func runTasks(ours *cli, ab *abCLI, pagesDir string) error {
	base, stop, err := serveDir(pagesDir)
	if err != nil {
		return err
	}
	defer stop()
	open, err := ours.json(`{"steps":[{"openTab":"about:blank"}]}`)
	if err != nil {
		return err
	}
	tab, _ := open["tab"].(string)
	fill := strings.NewReplacer("{base}", base, "{tab}", tab)
	var rows []taskRow
	for _, t := range tasks() {
		r := taskRow{name: t.name}
		var seen strings.Builder
		for i, c := range t.ours {
			out, err := ours.raw(fill.Replace(c))
			if err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			if d := os.Getenv("BENCH_BYTES_DUMP"); d != "" {
				os.WriteFile(filepath.Join(d, fmt.Sprintf("task%02d-%d.json", len(rows)+1, i+1)), out, 0o644)
			}
			r.ourCalls++
			r.ourBytes += len(out)
			seen.Write(out)
		}
		if !strings.Contains(seen.String(), t.want) {
			return fmt.Errorf("%s: cdp-skill's answers do not show %q", t.name, t.want)
		}
		if err := ours.holds(tab, t.check); err != nil {
			return fmt.Errorf("%s: cdp-skill: %w", t.name, err)
		}
		if ab != nil {
			seen.Reset()
			last := ""
			for _, st := range t.ab {
				args := make([]string, len(st))
				for i, a := range st {
					if args[i] = fill.Replace(a); strings.HasPrefix(a, "@") {
						if args[i], err = abRef(last, a); err != nil {
							return fmt.Errorf("%s: agent-browser: %w", t.name, err)
						}
					}
				}
				out, err := ab.run(args...)
				if err != nil {
					return fmt.Errorf("%s: agent-browser %s: %w", t.name, strings.Join(args, " "), err)
				}
				if args[0] == "snapshot" {
					last = string(out)
				}
				r.abCalls++
				r.abBytes += len(out)
				seen.Write(out)
			}
			if !strings.Contains(seen.String(), t.want) {
				return fmt.Errorf("%s: agent-browser's output does not show %q", t.name, t.want)
			}
			if got, err := ab.run("eval", t.check); err != nil || strings.TrimSpace(string(got)) != "true" {
				return fmt.Errorf("%s: agent-browser: %s is %s %v", t.name, t.check, got, err)
			}
		}
		rows = append(rows, r)
	}
	reportTasks(rows, ab != nil)
	return nil
}

func reportTasks(rows []taskRow, withAB bool) {
	fmt.Println("| task | cdp-skill calls | cdp-skill bytes | agent-browser calls | agent-browser bytes | bytes ratio |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	var oc, ob, ac, abb int
	for _, r := range rows {
		ratio := "–"
		if withAB && r.abBytes > 0 {
			ratio = fmt.Sprintf("%.2f×", float64(r.ourBytes)/float64(r.abBytes))
		}
		fmt.Printf("| %s | %d | %d B | %d | %d B | %s |\n", r.name, r.ourCalls, r.ourBytes, r.abCalls, r.abBytes, ratio)
		oc, ob, ac, abb = oc+r.ourCalls, ob+r.ourBytes, ac+r.abCalls, abb+r.abBytes
	}
	ratio := "–"
	if withAB && abb > 0 {
		ratio = fmt.Sprintf("%.2f×", float64(ob)/float64(abb))
	}
	fmt.Printf("| **all %d tasks** | %d | %d B | %d | %d B | %s |\n", len(rows), oc, ob, ac, abb, ratio)
	// The table task is where agent-browser prints a whole big page; the
	// ordinary tasks are the measure (issue 30).
	for _, r := range rows {
		if strings.Contains(r.name, "200-row table") && withAB && abb > r.abBytes {
			fmt.Printf("\nWithout the table task: %d B in %d calls against %d B in %d (%.3f×)\n",
				ob-r.ourBytes, oc-r.ourCalls, abb-r.abBytes, ac-r.abCalls, float64(ob-r.ourBytes)/float64(abb-r.abBytes))
		}
	}
}

// holds fails unless the page expression is true in our tab.
func (c *cli) holds(tab, expr string) error {
	res, err := c.quiet(`{"tab":"` + tab + `","steps":[{"pageFunction":` + jsonString(expr) + `}]}`)
	if err != nil {
		return err
	}
	steps, _ := res["steps"].([]any)
	st, _ := steps[0].(map[string]any)
	if st["output"] != true {
		return fmt.Errorf("%s is %v", expr, st["output"])
	}
	return nil
}

func jsonString(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// serveDir serves the fixture pages on loopback.
func serveDir(dir string) (string, func(), error) {
	if _, err := os.Stat(dir); err != nil {
		return "", nil, fmt.Errorf("the fixture pages: %w (run from the repository root, or pass -pages)", err)
	}
	return benchcli.Serve(http.FileServer(http.Dir(dir)))
}
