package runtime

import (
	"github.com/cdp-skill/cdp-skill/browser"
)

// maxFailedRequests bounds the failed requests an answer lists.
const maxFailedRequests = 10

// FailedRequest is a failed request in the answer's diagnostics.
type FailedRequest struct {
	Method  string `json:"method"`
	URL     string `json:"url"`
	Type    string `json:"type"`
	Status  int64  `json:"status,omitempty"`
	Failure string `json:"failure,omitempty"`
	// Count is how many times the same request failed, when more than once.
	Count int `json:"count,omitempty"`
}

// failedRequests summarises failed requests, repeated ones counted once.
func failedRequests(reqs []browser.Request) []FailedRequest {
	var out []FailedRequest
	index := map[string]int{}
	for _, r := range reqs {
		key := r.Method + " " + r.URL
		if i, ok := index[key]; ok {
			out[i].Count = max(out[i].Count, 1) + 1
			continue
		}
		if len(out) >= maxFailedRequests {
			continue
		}
		index[key] = len(out)
		out = append(out, FailedRequest{Method: r.Method, URL: clipText(browser.RedactURL(r.URL), 300), Type: r.Type, Status: r.Status, Failure: r.Failure})
	}
	return out
}

// withoutFailedLoads drops the browser's "Failed to load resource" log
// entries for requests the answer lists in failedRequests already.
func withoutFailedLoads(msgs []browser.ConsoleMessage, failed []FailedRequest) []browser.ConsoleMessage {
	if len(failed) == 0 {
		return msgs
	}
	listed := map[string]bool{}
	for _, f := range failed {
		listed[f.URL] = true
	}
	out := msgs[:0:0]
	for _, m := range msgs {
		if m.Type == "log" && listed[m.URL] {
			continue
		}
		out = append(out, m)
	}
	return out
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
