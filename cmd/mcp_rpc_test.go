package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// rawMCP is `cdp-skill mcp` driven line by line, without a client library:
// what it answers to exactly the bytes a client writes.
type rawMCP struct {
	t      *testing.T
	in     io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
}

// startRawMCP starts the server with Chrome expected on port.
func startRawMCP(t *testing.T, port int) *rawMCP {
	t.Helper()
	cmd := exec.Command(mcpBinary(t), "mcp")
	cmd.Env = append(os.Environ(), EnvPort+"="+strconv.Itoa(port), EnvHeadless+"=1")
	cmd.Dir = t.TempDir()
	m := &rawMCP{t: t, lines: make(chan string, 64), stderr: &bytes.Buffer{}}
	cmd.Stderr = m.stderr
	var err error
	if m.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(m.lines)
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				m.lines <- strings.TrimSuffix(line, "\n")
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		m.in.Close() // the client goes: the server must end, and cleanly
		done := make(chan error, 1)
		go func() {
			for range m.lines {
			}
			done <- cmd.Wait()
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the server ended with %v after stdin closed:\n%s", err, m.stderr)
			}
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Errorf("the server did not end after stdin closed:\n%s", m.stderr)
		}
	})
	return m
}

// send writes lines as they are, each with its newline.
func (m *rawMCP) send(lines ...string) {
	m.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(m.in, l+"\n"); err != nil {
			m.t.Fatalf("write %q: %v\n%s", l, err, m.stderr)
		}
	}
}

// next reads the next answer line.
func (m *rawMCP) next() string {
	m.t.Helper()
	select {
	case l, ok := <-m.lines:
		if !ok {
			m.t.Fatalf("the server closed stdout:\n%s", m.stderr)
		}
		return l
	case <-time.After(60 * time.Second):
		m.t.Fatalf("no answer:\n%s", m.stderr)
	}
	return ""
}

// rawAnswer is one JSON-RPC response.
type rawAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func (m *rawMCP) answer() rawAnswer {
	m.t.Helper()
	l := m.next()
	var a rawAnswer
	if err := json.Unmarshal([]byte(l), &a); err != nil || a.JSONRPC != "2.0" {
		m.t.Fatalf("not a JSON-RPC response: %v: %s", err, l)
	}
	return a
}

// initialize does the handshake at version and answers the result.
func (m *rawMCP) initialize(version string) map[string]any {
	m.t.Helper()
	m.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	a := m.answer()
	var res map[string]any
	if string(a.ID) != `"init"` || a.Error != nil || json.Unmarshal(a.Result, &res) != nil {
		m.t.Fatalf("initialize: %s %+v", a.Result, a.Error)
	}
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// JSON-RPC 2.0 error codes.
const (
	rpcParseError             = -32700
	rpcInvalidRequest         = -32600
	rpcMethodNotFound         = -32601
	rpcInvalidParams          = -32602
	mcpCodeUnsupportedVersion = -32022
	// anyError: the SDK answers these with an error whose code is 0.
	anyError = 1
)

const (
	rawInitialized = "2025-06-18"
	stateless      = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
)

// wantAnswer is the answer expected to one request: an error code (0: a
// result) and a piece of its message or result.
type wantAnswer struct {
	id   string // the id's JSON, exactly as the request wrote it
	code int
	has  string
}

// TestMCPRawProtocol writes lines and reads what the server answers. Each
// case ends with a ping: its answer proves the server still serves, and
// that nothing was answered that should not be (notifications are taken in
// order, so an answer to one would come first).
func TestMCPRawProtocol(t *testing.T) {
	cases := []struct {
		name    string
		version string // "": no handshake
		send    []string
		want    []wantAnswer
	}{
		{"parse error", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,`}, []wantAnswer{{"null", rpcParseError, "parse error"}}},
		{"not JSON", rawInitialized, []string{`hello`}, []wantAnswer{{"null", rpcParseError, "invalid character 'h'"}}},
		{"two messages on a line", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"ping"}{"jsonrpc":"2.0","id":3,"method":"ping"}`}, []wantAnswer{{"null", rpcParseError, "after top-level value"}}},
		{"no jsonrpc member", rawInitialized, []string{`{"id":2,"method":"ping"}`}, []wantAnswer{{"null", rpcInvalidRequest, `expected "2.0"`}}},
		{"jsonrpc 1.0", rawInitialized, []string{`{"jsonrpc":"1.0","id":2,"method":"ping"}`}, []wantAnswer{{"null", rpcInvalidRequest, `"2.0"`}}},
		{"method not a string", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":7}`}, []wantAnswer{{"null", rpcInvalidRequest, `invalid request`}}},
		// The SDK reads a message with an id and no method as a response
		// (to nothing), and one with a null id as a notification: no answer.
		{"no method", rawInitialized, []string{`{"jsonrpc":"2.0","id":2}`}, nil},
		{"object id", rawInitialized, []string{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`}, []wantAnswer{{"null", rpcInvalidRequest, "invalid ID"}}},
		{"null id", rawInitialized, []string{`{"jsonrpc":"2.0","id":null,"method":"ping"}`}, nil},
		{"a number, not a message", rawInitialized, []string{`5`}, []wantAnswer{{"null", rpcInvalidRequest, "invalid request"}}},
		{"null, not a message", rawInitialized, []string{`null`}, []wantAnswer{{"null", rpcInvalidRequest, "invalid request"}}},
		{"blank lines are skipped", rawInitialized, []string{``, `   `, "\t"}, nil},
		{"a response is not answered", rawInitialized, []string{`{"jsonrpc":"2.0","id":99,"result":{}}`}, nil},
		{"unknown method", rawInitialized, []string{`{"jsonrpc":"2.0","id":"u","method":"foo/bar"}`}, []wantAnswer{{`"u"`, rpcMethodNotFound, `"foo/bar"`}}},
		{"notifications get no answer", rawInitialized, []string{
			`{"jsonrpc":"2.0","method":"notifications/foo"}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42}}`,
			`{"jsonrpc":"2.0","method":"notifications/cancelled"}`,
			`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`}, nil},
		{"string and number ids", rawInitialized, []string{
			`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
			`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":-3,"method":"ping","params":{}}`,
			`{"jsonrpc":"2.0","id":"","method":"ping"}`},
			[]wantAnswer{{`"abc"`, 0, "{}"}, {"7", 0, "{}"}, {"-3", 0, "{}"}, {`""`, 0, "{}"}}},
		{"params not an object", rawInitialized, []string{`{"jsonrpc":"2.0","id":5,"method":"ping","params":[]}`}, []wantAnswer{{"5", rpcInvalidParams, "invalid params"}}},
		{"tools/list", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`}, []wantAnswer{{"2", 0, `"name":"run_recipe"`}}},
		{"tools/list with a cursor", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"zz"}}`}, []wantAnswer{{"2", rpcInvalidParams, "invalid params"}}},
		{"compile", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"compile","arguments":{"steps":[{"click":"#a"}]}}}`}, []wantAnswer{{"2", 0, `click(\"#a\")`}}},
		{"unknown tool", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}`}, []wantAnswer{{"2", rpcInvalidParams, `unknown tool "nope"`}}},
		{"tools/call without params", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`}, []wantAnswer{{"2", rpcInvalidRequest, `"params"`}}},
		{"tool name not a string", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}`}, []wantAnswer{{"2", rpcInvalidParams, "invalid params"}}},
		// A tool's own bad arguments are a tool result with isError, which
		// the model reads, as the SDK answered them.
		{"bad arguments", rawInitialized, []string{
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tabs","arguments":{"action":"list","bogus":1}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"tabs","arguments":"x"}}`,
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"compile","arguments":[1]}}`,
			`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_recipe","arguments":{}}}`},
			[]wantAnswer{{"2", 0, `not \\\"bogus\\\"`}, {"3", 0, `"isError":true`}, {"4", 0, "not an array"}, {"5", 0, "exactly one of"}}},
		{"ping before initialize", "", []string{`{"jsonrpc":"2.0","id":7,"method":"ping"}`}, []wantAnswer{{"7", 0, "{}"}}},
		{"a call before initialize", "", []string{
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"compile","arguments":{"steps":[{"click":"#a"}]}}}`,
			`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`},
			[]wantAnswer{{"7", anyError, "during session initialization"}, {"8", anyError, "during session initialization"}}},
		{"initialize twice", rawInitialized, []string{`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`}, []wantAnswer{{"2", anyError, "duplicate"}}},
		{"initialize without params", "", []string{`{"jsonrpc":"2.0","id":2,"method":"initialize"}`}, []wantAnswer{{"2", rpcInvalidRequest, `"params"`}}},
		{"server/discover outside the new protocol", "", []string{`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`}, []wantAnswer{{"1", rpcMethodNotFound, "server/discover"}}},
		// The 2026-07-28 protocol: no handshake; each request names its
		// version in _meta, and each result the server.
		{"server/discover", "", []string{`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + stateless + `}}`},
			[]wantAnswer{{"1", 0, `"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"]`}}},
		{"a call in the new protocol", "", []string{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + stateless + `,"name":"compile","arguments":{"steps":[{"click":"#a"}]}}}`},
			[]wantAnswer{{"2", 0, `"resultType":"complete"`}}},
		{"initialize in the new protocol", "", []string{`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{` + stateless + `}}`}, []wantAnswer{{"2", rpcMethodNotFound, "initialize"}}},
		{"an unknown newer version", "", []string{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`},
			[]wantAnswer{{"2", mcpCodeUnsupportedVersion, "unsupported protocol version"}}},
		{"no client capabilities", "", []string{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
			[]wantAnswer{{"2", rpcInvalidParams, "clientCapabilities"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := startRawMCP(t, 1)
			if c.version != "" {
				m.initialize(c.version)
			}
			m.send(c.send...)
			m.send(`{"jsonrpc":"2.0","id":"end","method":"ping"}`)
			want := map[string]wantAnswer{`"end"`: {`"end"`, 0, "{}"}}
			for _, w := range c.want {
				want[w.id] = w
			}
			for len(want) > 0 {
				a := m.answer()
				w, ok := want[string(a.ID)]
				if !ok {
					t.Fatalf("unexpected answer (id %s): %+v %s", a.ID, a.Error, a.Result)
				}
				delete(want, w.id)
				checkAnswer(t, a, w)
			}
		})
	}
}

func checkAnswer(t *testing.T, a rawAnswer, w wantAnswer) {
	t.Helper()
	switch {
	case w.code == 0 && a.Error != nil:
		t.Errorf("id %s: want a result, got error %d %q", w.id, a.Error.Code, a.Error.Message)
	case w.code == 0 && !strings.Contains(string(a.Result), w.has):
		t.Errorf("id %s: result lacks %q: %.600s", w.id, w.has, a.Result)
	case w.code != 0 && a.Error == nil:
		t.Errorf("id %s: want error %d, got result %.300s", w.id, w.code, a.Result)
	case w.code != 0 && (a.Error.Code != w.code && w.code != anyError || !strings.Contains(a.Error.Message, w.has)):
		t.Errorf("id %s: error %d %q, want %d containing %q", w.id, a.Error.Code, a.Error.Message, w.code, w.has)
	case w.code != 0 && a.Result != nil:
		t.Errorf("id %s: an error answer with a result: %s", w.id, a.Result)
	}
}

// TestMCPRawVersionNegotiation: initialize answers the client's version
// when the server speaks it and else its newest handshake version, with
// the same server description each time.
func TestMCPRawVersionNegotiation(t *testing.T) {
	for _, c := range []struct{ asked, want string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", "2025-11-25"}, // spoken without initialize
		{"2099-01-01", "2025-11-25"},
		{"2020-01-01", "2025-11-25"},
		{"", "2025-11-25"},
	} {
		t.Run(c.asked, func(t *testing.T) {
			res := startRawMCP(t, 1).initialize(c.asked)
			if res["protocolVersion"] != c.want {
				t.Errorf("protocolVersion = %v, want %s", res["protocolVersion"], c.want)
			}
			info, _ := res["serverInfo"].(map[string]any)
			caps, _ := res["capabilities"].(map[string]any)
			instr, _ := res["instructions"].(string)
			if info["name"] != "cdp-skill" || caps["tools"] == nil || !strings.Contains(instr, "cdp-skill drives Chrome") {
				t.Errorf("initialize result: %v", res)
			}
		})
	}
}

// TestMCPRawBatches: a batch (JSON-RPC batching left MCP in 2025-06-18)
// is refused with one error, and the server goes on.
func TestMCPRawBatches(t *testing.T) {
	m := startRawMCP(t, 1)
	m.initialize("2025-03-26")
	m.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	checkAnswer(t, m.answer(), wantAnswer{"null", rpcInvalidRequest, "batches are not supported"})
	checkAnswer(t, m.answer(), wantAnswer{"2", 0, "{}"})
}

// TestMCPRawLongLine: a line over the limit is answered with an error and
// skipped, and the server goes on.
func TestMCPRawLongLine(t *testing.T) {
	m := startRawMCP(t, 1)
	m.initialize(rawInitialized)
	m.send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("a", 16<<20)+`"}}`, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	checkAnswer(t, m.answer(), wantAnswer{"null", rpcInvalidRequest, "longer than"})
	checkAnswer(t, m.answer(), wantAnswer{"2", 0, "{}"})
}

// TestMCPRawCancel: notifications/cancelled stops a running call, long
// before its five minutes, and the call gets no response (the MCP spec:
// the receiver should not answer a cancelled request); while it runs, its
// other calls are served at once.
func TestMCPRawCancel(t *testing.T) {
	m := startRawMCP(t, browsertest.Require(t).Port)
	m.initialize(rawInitialized)
	m.send(`{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"interact","arguments":{"steps":[{"sleep":300000,"timeout":300000}]}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"compile","arguments":{"steps":[{"click":"#a"}]}}}`)
	checkAnswer(t, m.answer(), wantAnswer{"3", 0, "click"})
	m.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"long","reason":"the user stopped it"}}`)
	// The id is free again once its call ended: a ping with it is answered
	// (an answer to the cancelled call would come first, or in its place).
	pingUntilFree(t, m, "long")
	// A step waiting on the page is stopped too, and its call not answered.
	m.send(`{"jsonrpc":"2.0","id":"open","method":"tools/call","params":{"name":"tabs","arguments":{"action":"open","url":"about:blank"}}}`)
	var opened struct {
		StructuredContent struct{ Tab string } `json:"structuredContent"`
	}
	if a := m.answer(); json.Unmarshal(a.Result, &opened) != nil || opened.StructuredContent.Tab == "" {
		t.Fatalf("open: %+v %s", a.Error, a.Result)
	}
	m.send(`{"jsonrpc":"2.0","id":"wait","method":"tools/call","params":{"name":"interact","arguments":{"tab":"` + opened.StructuredContent.Tab + `","steps":[{"wait":{"selector":"#never","timeout":300000}}]}}}`)
	m.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	checkAnswer(t, m.answer(), wantAnswer{`"p"`, 0, "{}"})
	m.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"wait"}}`)
	pingUntilFree(t, m, "wait")
}

// pingUntilFree pings with id until the server answers it: while the
// cancelled call holds the id, the SDK drops a request reusing it, so the
// first answer with that id comes once the call has ended; it must be the
// ping's, not the cancelled call's.
func pingUntilFree(t *testing.T, m *rawMCP, id string) {
	t.Helper()
	for i := 0; i < 600; i++ {
		m.send(`{"jsonrpc":"2.0","id":"`+id+`","method":"ping"}`, `{"jsonrpc":"2.0","id":"probe","method":"ping"}`)
		for got := 0; got < 2; {
			a := m.answer()
			switch string(a.ID) {
			case `"probe"`:
				got = 2
			case `"` + id + `"`:
				if a.Error != nil || string(a.Result) != "{}" {
					t.Fatalf("the cancelled call %s was answered: %+v %.300s", id, a.Error, a.Result)
				}
				checkAnswer(t, m.answer(), wantAnswer{`"probe"`, 0, "{}"})
				return
			default:
				t.Fatalf("unexpected answer %s: %+v %.300s", a.ID, a.Error, a.Result)
			}
		}
		time.Sleep(100 * time.Millisecond) // the server announces no end of a cancelled call
	}
	t.Fatalf("call %s still runs a minute after its cancellation", id)
}

// TestMCPRawClientGoneCancelsCalls: when stdin closes, a running call is
// cancelled and the server exits (startRawMCP's cleanup checks it ends
// cleanly, within a minute, not after the five-minute sleep).
func TestMCPRawClientGoneCancelsCalls(t *testing.T) {
	m := startRawMCP(t, browsertest.Require(t).Port)
	m.initialize(rawInitialized)
	m.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interact","arguments":{"steps":[{"sleep":300000,"timeout":300000}]}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	checkAnswer(t, m.answer(), wantAnswer{"2", 0, "{}"})
}

// TestMCPSDKClientAtEachVersion: the official Go SDK client works with the
// server through the initialize handshake at each version it negotiates
// (the other MCP tests connect at 2026-07-28, through server/discover).
func TestMCPSDKClientAtEachVersion(t *testing.T) {
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		t.Run(v, func(t *testing.T) {
			cmd := exec.Command(mcpBinary(t), "mcp")
			cmd.Env = append(os.Environ(), EnvPort+"=1")
			cmd.Dir = t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "cdp-skill-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Errorf("negotiated %s, want %s", got, v)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 7 {
				t.Fatalf("tools/list: %v %v", err, tools)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "compile", Arguments: map[string]any{"steps": []any{map[string]any{"click": "#a"}}}})
			if err != nil || res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `click("#a")`) {
				t.Fatalf("compile: %v %+v", err, res)
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
				t.Errorf("unknown tool: %v", err)
			}
		})
	}
}
