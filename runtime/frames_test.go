package runtime

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// refIn returns the ref on the first line of yaml containing needle.
func refIn(t *testing.T, yaml, needle string) string {
	t.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		if strings.Contains(line, needle) {
			if m := regexp.MustCompile(`\[ref=(s[0-9]+e[0-9]+)\]`).FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no ref for %q in:\n%s", needle, yaml)
	return ""
}

// TestFramesTransparentJSON drives a form in a same-origin iframe nested in
// a cross-site iframe with refs from one top-level snapshot, across
// commands: fill, check and click act there once, the diff shows the
// change inside the frame, a text click finds its frame and says so, a
// selected frame scopes the rest of its command only (the next command
// starts in the top document, spec §19.12), and the form is submitted
// exactly once.
func TestFramesTransparentJSON(t *testing.T) {
	site := browsertest.NewFrameSite(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+site.Top+`index.html"},{"wait":"iframe#partner"},{"snapshot":{}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	tab := out.Tab
	yaml, _ := stepOutput(t, out, 2)["yaml"].(string)
	if !strings.Contains(yaml, "[url="+site.Cross+"form.html]") {
		// The frames may still be loading: snapshot again.
		again := runJSON(t, `{"tab":"`+tab+`","steps":[{"wait":{"time":500}},{"snapshot":{}}]}`)
		mustOK(t, again)
		yaml, _ = stepOutput(t, again, 1)["yaml"].(string)
	}
	name, terms, count, submit := refIn(t, yaml, `textbox "Full name"`), refIn(t, yaml, `checkbox "I accept`), refIn(t, yaml, `button "Count me"`), refIn(t, yaml, `button "Place order"`)

	act := runJSON(t, `{"tab":"`+tab+`","steps":[{"fill":{"ref":"`+name+`","value":"Grace Hopper"}},{"check":"`+terms+`"},{"click":{"ref":"`+count+`","observe":"() => document.title"}}]}`)
	mustOK(t, act)
	if click := stepOutput(t, act, 2); click["method"] != "cdp" || !strings.Contains(jsonString(click["frame"]), "form.html") {
		t.Errorf("click output: %s", jsonString(click))
	}
	// The step's hooks run where the command is (the top document).
	if got := jsonString(act.Steps[2].Observation); got != `"Shop"` {
		t.Errorf("observe ran in %s, not the top document (%s)", got, jsonString(act.Steps[2]))
	}
	if act.Changes == nil || !strings.Contains(jsonString(act.Changes), "Counted 1") {
		t.Errorf("the diff does not show the change inside the frame: %s", jsonString(act.Changes))
	}

	// Select the checkout frame by name: the command's next step runs
	// there, and the next command starts in the top document.
	in := runJSON(t, `{"tab":"`+tab+`","steps":[{"frame":"checkout"},{"pageFunction":"() => [document.getElementById('count').dataset.n, document.querySelector('[name=terms]').checked, document.querySelector('[name=name]').value]"}]}`)
	mustOK(t, in)
	if got := jsonString(in.Steps[1].Output); got != `["1",true,"Grace Hopper"]` {
		t.Fatalf("in the selected frame: %s", got)
	}
	next := runJSON(t, `{"tab":"`+tab+`","steps":[{"pageFunction":"() => document.title"}]}`)
	mustOK(t, next)
	if got := jsonString(next.Steps[0].Output); got != `"Shop"` {
		t.Fatalf("the next command ran in %s, not the top document", got)
	}

	// Back at the top, a text target is found inside the frames.
	top := runJSON(t, `{"tab":"`+tab+`","steps":[{"frame":"top"},{"click":{"text":"Counted 1"}},{"pageFunction":"() => document.title"}]}`)
	mustOK(t, top)
	if got := stepOutput(t, top, 1); !strings.Contains(jsonString(got["frame"]), "form.html") {
		t.Errorf("text click does not name its frame: %s", jsonString(got))
	}
	if got := jsonString(top.Steps[2].Output); got != `"Shop"` {
		t.Errorf("the step after the text click ran in %s, not the top document", got)
	}

	mustOK(t, runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"`+submit+`"}]}`))
	deadline := time.Now().Add(10 * time.Second)
	for len(site.Submissions()) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	if got := site.Submissions(); len(got) != 1 || got[0] != "country=France&name=Grace+Hopper&receipt=&terms=yes" {
		t.Fatalf("submissions = %q", got)
	}
}

// TestFrameNavigationInTheAnswer: a click on a link inside an iframe says
// where the frame went, in the step's output and in the summary, and the
// answer's snapshot shows the frame's new page.
func TestFrameNavigationInTheAnswer(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`framed.html"},{"snapshot":{}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	yaml, _ := stepOutput(t, out, 1)["yaml"].(string)
	review := refIn(t, yaml, `link "Review order"`)
	act := runJSON(t, `{"tab":"`+out.Tab+`","capture":"compact","steps":[{"click":"`+review+`"}]}`)
	mustOK(t, act)
	if got := jsonString(stepOutput(t, act, 0)["framesNavigated"]); !strings.Contains(got, "framed-review.html") {
		t.Errorf("the click's output does not say where the frame went: %s", jsonString(act.Steps[0]))
	}
	if act.Navigated {
		t.Errorf("a frame's navigation reported as the tab's: %s", act.JSON())
	}
	if act.Changes == nil || !strings.HasPrefix(act.Changes.Summary, "Clicked. Frame went to ") || !strings.Contains(act.Changes.Summary, "framed-review.html") {
		t.Errorf("summary: %s", jsonString(act.Changes))
	}
	if !strings.Contains(act.ViewportSnap, `button "Place order"`) {
		t.Errorf("the answer's snapshot does not show the frame's new page:\n%s", act.ViewportSnap)
	}
}
