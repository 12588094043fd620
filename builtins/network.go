package builtins

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
	"github.com/cdp-skill/cdp-skill/lang"
	"github.com/cdp-skill/cdp-skill/lang/stepopt"
)

func init() {
	register(map[string]ActionFunc{
		"network":         networkStep,
		"waitForResponse": waitForResponse,
		"route":           route,
		"har":             har,
		"waitForDownload": waitForDownload,
	})
}

// networkInline is how many requests the network step lists inline; a
// longer list goes to a file as well.
const networkInline = 30

// networkStep handles network(url =, url_regex =, type =, status =,
// failed =, limit =, clear =).
func networkStep(c *Call) (any, error) {
	o := options[lang.NetworkOptions](c)
	f := browser.NetworkFilter{URL: o.URL, URLRegex: o.URLRegex, Failed: o.Failed}
	var err error
	f.Types = o.Type
	if f.Status, err = statusArg(o.Status); err != nil {
		return nil, err
	}
	limit := o.Limit
	if limit < 1 {
		return nil, invalid("network: limit must be at least 1, not %d", limit)
	}
	clear := o.Clear
	if !c.Env.KeepNetworkLog {
		f.Since = c.Env.Started
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	reqs, err := p.Network().Requests(c.Ctx, f)
	if err != nil {
		return nil, err
	}
	if clear {
		p.Network().Clear()
	}
	for i := range reqs {
		reqs[i].URL = browser.RedactURL(reqs[i].URL)
		reqs[i].RedirectedTo = browser.RedactURL(reqs[i].RedirectedTo)
	}
	out := map[string]any{"count": len(reqs)}
	if len(reqs) > limit {
		reqs = reqs[len(reqs)-limit:]
		out["shown"] = limit
	}
	inline := recentWithin(reqs, networkInline, networkInlineBytes)
	if inline == len(reqs) {
		out["requests"] = reqs
		return out, nil
	}
	data, _ := json.MarshalIndent(reqs, "", " ")
	path, err := SpillFile(c.Env, "network", "requests.json", data)
	if err != nil {
		return nil, err
	}
	out["requests"] = reqs[len(reqs)-inline:]
	out["file"] = path
	out["message"] = fmt.Sprintf("%d requests; the last %d are inline and all of them are in %s (or narrow with url, type, status or failed)", len(reqs), inline, path)
	return out, nil
}

// networkInlineBytes bounds the JSON of the requests listed inline.
const networkInlineBytes = 6 << 10

// recentWithin counts how many of the most recent requests fit in n
// entries and max JSON bytes (at least one).
func recentWithin(reqs []browser.Request, n, max int) int {
	size, count := 0, 0
	for i := len(reqs) - 1; i >= 0 && count < n; i-- {
		data, _ := json.Marshal(reqs[i])
		if size += len(data) + 1; size > max && count > 0 {
			break
		}
		count++
	}
	return count
}

// statusArg checks a status filter: a code (404) or a class ("4xx").
func statusArg(s stepopt.Status) (string, error) {
	return string(s), browser.CheckStatusFilter(string(s))
}

// waitForResponse handles wait_for_response(url, url_regex =, status =,
// method =, body =).
func waitForResponse(c *Call) (any, error) {
	w := browser.ResponseWait{Since: c.Env.Started}
	var err error
	wo := options[lang.WaitForResponseOptions](c)
	w.URL, w.URLRegex, w.Method = wo.URL, wo.URLRegex, wo.Method
	if c.Args.Pos != nil {
		if w.URL, err = posString(c, "a URL pattern"); err != nil {
			return nil, err
		}
	}
	if w.URL == "" && w.URLRegex == "" {
		return nil, invalid("wait_for_response needs a URL pattern").
			WithAdvice(forExample(`{"waitForResponse": "/api/items"}`, `{"waitForResponse": {"urlRegex": "/api/items/[0-9]+"}}`))
	}
	if w.Status, err = statusArg(wo.Status); err != nil {
		return nil, err
	}
	w.Body = int(wo.Body)
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	res, err := p.Network().WaitForResponse(c.Ctx, w)
	if err != nil {
		return nil, err
	}
	res.URL = browser.RedactURL(res.URL)
	return res, nil
}

// har handles har(path, secrets =): the command's requests are written to
// the file when the command ends.
func har(c *Call) (any, error) {
	r := browser.HARRequest{Dir: c.Env.OutputDir, Since: c.Env.Started}
	var err error
	ho := options[lang.HAROptions](c)
	r.Path, r.Secrets = ho.Path, ho.Secrets
	if c.Args.Pos != nil {
		if r.Path, err = posString(c, "the .har file's path"); err != nil {
			return nil, err
		}
	}
	if r.Path == "" {
		return nil, browser.Errorf(browser.KindStepValidation, "har needs a file path").
			WithAdvice(suggest.New("%s (a relative path is written under "+strings.ReplaceAll(outputDirOf(c), "%", "%%")+")", suggest.Step{Name: "har", Value: "traffic.har"}))
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	// Check the path now, so a bad one fails this step, not the answer.
	check, err := browser.OutputFile{Path: r.Path, Dir: r.Dir, Kind: "har", Ext: ".har", Exts: []string{".har", ".json"}}.Open()
	if err != nil {
		return nil, err
	}
	check.Close()
	c.Env.AtEnd(func(ctx context.Context) {
		if _, err := p.Network().WriteHAR(ctx, r); err != nil {
			c.Env.Warn("har: the recording was not written: " + err.Error())
		}
	})
	return map[string]any{"recording": check.Path, "note": "the file is written when the command ends"}, nil
}

// outputDirOf is where a relative output path of this command goes: the
// output directory, or the current directory when none is set.
func outputDirOf(c *Call) string {
	if c.Env.OutputDir != "" {
		return c.Env.OutputDir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "the current directory"
}

// waitForDownload handles wait_for_download().
func waitForDownload(c *Call) (any, error) {
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	return p.Downloads().WaitNext(c.Ctx, c.Env.Started, c.Env.OutputDir)
}
