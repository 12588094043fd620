package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestMCPCallsRunInArrivalOrderPerTab: twelve calls on one tab, written
// without waiting for answers, each pushing its index into the page, run
// in the order they were sent (hosts issue parallel tool calls: a click
// and the snapshot after it must not swap).
func TestMCPCallsRunInArrivalOrderPerTab(t *testing.T) {
	m := startRawMCP(t, browsertest.Require(t).Port)
	m.initialize(rawInitialized)
	m.send(`{"jsonrpc":"2.0","id":"open","method":"tools/call","params":{"name":"tabs","arguments":{"action":"open","url":"about:blank"}}}`)
	var opened struct {
		StructuredContent struct{ Tab string } `json:"structuredContent"`
	}
	if a := m.answer(); json.Unmarshal(a.Result, &opened) != nil || opened.StructuredContent.Tab == "" {
		t.Fatalf("open: %+v %s", a.Error, a.Result)
	}
	tab := opened.StructuredContent.Tab
	t.Cleanup(func() { cli(t, t.TempDir(), nil, `{"steps":[{"closeTab":"`+tab+`"}]}`) })
	var lines []string
	for i := range 12 {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"evaluate","arguments":{"tab":"%s","capture":"none","steps":[{"pageFunction":"(window.order = window.order || []).push(%d)"}]}}}`, i, tab, i))
	}
	m.send(lines...)
	for range 12 {
		if a := m.answer(); a.Error != nil || strings.Contains(string(a.Result), `"isError":true`) {
			t.Fatalf("call %s: %+v %.300s", a.ID, a.Error, a.Result)
		}
	}
	r := cli(t, t.TempDir(), nil, `{"tab":"`+tab+`","steps":[{"pageFunction":"window.order.join(',')"}]}`)
	if got := r.field("steps", "0", "output"); got != "0,1,2,3,4,5,6,7,8,9,10,11" {
		t.Fatalf("the page saw the calls in the order %v: %s", got, r.stdout)
	}
}

// TestMCPProgressWhileWaiting: a call that waits, given a progressToken,
// sends progress notifications with that token until it answers.
func TestMCPProgressWhileWaiting(t *testing.T) {
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	cmd := exec.Command(mcpBinary(t), "mcp")
	cmd.Env = append(os.Environ(), EnvPort+"="+strconv.Itoa(browsertest.Require(t).Port), EnvHeadless+"=1")
	cmd.Dir = t.TempDir()
	client := mcp.NewClient(&mcp.Implementation{Name: "progress-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tab := openCounter(t, cs, nil)
	params := &mcp.CallToolParams{Name: "interact", Arguments: map[string]any{"tab": tab, "capture": "none", "steps": []any{map[string]any{"wait": 2500}}}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("wait: %v %+v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress notification during a 2.5 s wait")
	}
	last := 0.0
	for _, p := range got {
		if p.ProgressToken != "tok-1" || p.Progress <= last || !strings.Contains(p.Message, "interact") {
			t.Errorf("progress %+v (after %v)", p, last)
		}
		last = p.Progress
	}
	// Without a token: none.
	n := len(got)
	mu.Unlock()
	cs.CallTool(ctx, &mcp.CallToolParams{Name: "interact", Arguments: map[string]any{"tab": tab, "capture": "none", "steps": []any{map[string]any{"wait": 1500}}}})
	mu.Lock()
	if len(got) != n {
		t.Errorf("progress sent without a progressToken: %+v", got[n:])
	}
}

// TestMCPCapabilitiesAreWhatIsServed: only tools is declared, and the
// methods of undeclared capabilities are not served.
func TestMCPCapabilitiesAreWhatIsServed(t *testing.T) {
	m := startRawMCP(t, 1)
	res := m.initialize(rawInitialized)
	if caps, _ := json.Marshal(res["capabilities"]); string(caps) != `{"tools":{}}` {
		t.Errorf("capabilities = %s, want only tools", caps)
	}
	m.send(`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"bogus"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/templates/list"}`)
	for range 5 {
		a := m.answer()
		if a.Error == nil || a.Error.Code != rpcMethodNotFound {
			t.Errorf("id %s: want method not found, got %+v %s", a.ID, a.Error, a.Result)
		}
	}
}

// TestMCPSessionTabsCloseWithTheClient: the tabs a session opened close
// when its client goes away, except one opened with "keep": true.
func TestMCPSessionTabsCloseWithTheClient(t *testing.T) {
	c := browsertest.Require(t)
	cmd := exec.Command(mcpBinary(t), "mcp")
	cmd.Env = append(os.Environ(), EnvPort+"="+strconv.Itoa(c.Port), EnvHeadless+"=1")
	cmd.Dir = t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "tabs-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("<title>T</title><p>hi</p>")) }))
	gone := call(t, cs, "tabs", map[string]any{"action": "open", "url": base})
	kept := call(t, cs, "tabs", map[string]any{"action": "open", "url": base, "keep": true})
	goneTab, _ := gone.out["tab"].(string)
	keptTab, _ := kept.out["tab"].(string)
	if goneTab == "" || keptTab == "" {
		t.Fatalf("open: %s %s", gone.text, kept.text)
	}
	t.Cleanup(func() { cli(t, t.TempDir(), nil, `{"steps":[{"closeTab":"`+keptTab+`"}]}`) })
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	cmd.Wait()
	r := cli(t, t.TempDir(), nil, `{"steps":[{"listTabs":true}]}`)
	listed := string(r.stdout)
	if strings.Contains(listed, `"tab":"`+goneTab+`"`) {
		t.Errorf("tab %s the session opened is still open after its client left: %s", goneTab, listed)
	}
	if !strings.Contains(listed, `"tab":"`+keptTab+`"`) {
		t.Errorf("tab %s opened with keep was closed: %s", keptTab, listed)
	}
}

var servingLine = regexp.MustCompile(`serving Streamable HTTP on (http://\S+)`)

// startHTTP starts `cdp-skill mcp --http addr` and returns the URL it
// serves (or, when it did not start, what it printed).
func startHTTP(t *testing.T, addr string, env ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(mcpBinary(t), "mcp", "--http", addr)
	cmd.Env = append(append(os.Environ(), EnvPort+"="+strconv.Itoa(browsertest.Require(t).Port), EnvHeadless+"=1"), env...)
	cmd.Dir = t.TempDir()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 4096)
	var seen string
	for {
		n, err := stderr.Read(buf)
		seen += string(buf[:n])
		if m := servingLine.FindStringSubmatch(seen); m != nil {
			go io.Copy(io.Discard, stderr)
			return m[1], cmd
		}
		if err != nil {
			return seen, cmd
		}
	}
}

// TestMCPHTTPSessionEndClosesItsTabs: when an HTTP client deletes its
// session, the tabs it opened close while the server goes on serving;
// a tab opened with keep stays.
func TestMCPHTTPSessionEndClosesItsTabs(t *testing.T) {
	url, _ := startHTTP(t, "127.0.0.1:0")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("server did not start: %s", url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	connect := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	cs := connect()
	open := func(keep bool) string {
		a := call(t, cs, "tabs", map[string]any{"action": "open", "url": "about:blank", "keep": keep})
		tab, _ := a.out["tab"].(string)
		if tab == "" {
			t.Fatalf("tabs open: %s", a.text)
		}
		return tab
	}
	gone, kept := open(false), open(true)
	t.Cleanup(func() { cli(t, t.TempDir(), nil, `{"steps":[{"closeTab":"`+kept+`"}]}`) })
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	// The server still serves; the session's tab is gone, the kept one
	// is there. (Closing runs after the session ends: wait for it.)
	other := connect()
	defer other.Close()
	var listed string
	for ctx.Err() == nil {
		a := call(t, other, "tabs", map[string]any{"action": "list"})
		listed = a.text
		if !strings.Contains(listed, `"`+gone+`"`) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
	if strings.Contains(listed, `"`+gone+`"`) || !strings.Contains(listed, `"`+kept+`"`) {
		t.Errorf("after the session ended, %s should be closed and %s open: %s", gone, kept, listed)
	}
}

// TestMCPStreamableHTTP: --http serves the same tools over Streamable
// HTTP on loopback; another address needs the bearer token, which every
// request must then carry.
func TestMCPStreamableHTTP(t *testing.T) {
	start := func(addr string, env ...string) (string, *exec.Cmd) {
		t.Helper()
		return startHTTP(t, addr, env...)
	}
	url, _ := start("127.0.0.1:0")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("server did not start: %s", url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "compile", Arguments: map[string]any{"steps": []any{map[string]any{"click": "#a"}}}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `click("#a")`) {
		t.Fatalf("compile over HTTP: %v %+v", err, res)
	}

	// Beyond loopback without a token: refused at start.
	out, cmd := start("0.0.0.0:0")
	cmd.Wait()
	if !strings.Contains(out, EnvMCPToken) || cmd.ProcessState.ExitCode() == 0 {
		t.Errorf("a non-loopback address without a token: exit %d, %s", cmd.ProcessState.ExitCode(), out)
	}
	// With a token: a request without it is refused, one with it served.
	url, _ = start("0.0.0.0:0", EnvMCPToken+"=s3cret")
	if !strings.HasPrefix(url, "http://") {
		t.Fatalf("server did not start: %s", url)
	}
	url = strings.NewReplacer("0.0.0.0", "127.0.0.1", "[::]", "127.0.0.1").Replace(url)
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: HTTP %d, want 401", resp.StatusCode)
	}
	hc := &http.Client{Transport: bearerTransport{"s3cret"}}
	cs2, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	cs2.Close()
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

var structuredTab = regexp.MustCompile(`"structuredContent":\{"status":"ok","tab":"(t\d+)"`)

// TestMCPHTTPCancelledCallGetsNoResponse: over Streamable HTTP, a call the
// client cancels while it waits on the page stops and its stream ends
// without a response (the spec: no answer to a cancelled request); the
// tab's next call is served.
func TestMCPHTTPCancelledCallGetsNoResponse(t *testing.T) {
	url, _ := startHTTP(t, "127.0.0.1:0")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("server did not start: %s", url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	session := ""
	post := func(body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	read := func(resp *http.Response) string {
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return string(data)
	}
	init := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	session = init.Header.Get("Mcp-Session-Id")
	read(init)
	read(post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	opened := read(post(`{"jsonrpc":"2.0","id":"open","method":"tools/call","params":{"name":"tabs","arguments":{"action":"open","url":"about:blank"}}}`))
	m := structuredTab.FindStringSubmatch(opened)
	if m == nil {
		t.Fatalf("open: %s", opened)
	}
	wait := post(`{"jsonrpc":"2.0","id":"wait","method":"tools/call","params":{"name":"interact","_meta":{"progressToken":"pt"},"arguments":{"tab":"` + m[1] + `","steps":[{"wait":{"selector":"#never","timeout":300000}}]}}}`)
	stream := bufio.NewReader(wait.Body)
	var seen strings.Builder
	for !strings.Contains(seen.String(), "notifications/progress") {
		line, err := stream.ReadString('\n')
		seen.WriteString(line)
		if err != nil {
			t.Fatalf("no progress before the stream ended: %v %s", err, seen.String())
		}
	}
	read(post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"wait"}}`))
	rest, _ := io.ReadAll(stream)
	wait.Body.Close()
	if strings.Contains(string(rest), `"id":"wait"`) {
		t.Errorf("the cancelled call was answered: %s", rest)
	}
	if ctx.Err() != nil {
		t.Fatalf("the cancelled call's stream did not end")
	}
	closed := read(post(`{"jsonrpc":"2.0","id":"close","method":"tools/call","params":{"name":"tabs","arguments":{"action":"close","tab":"` + m[1] + `"}}}`))
	if !strings.Contains(closed, `"id":"close"`) || !strings.Contains(closed, `"structuredContent":{"status":"ok"`) {
		t.Errorf("the tab's next call: %s", closed)
	}
}
