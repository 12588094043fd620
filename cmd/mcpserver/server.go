// Package mcpserver serves cdp-skill over the Model Context Protocol with
// the official Go SDK. It is linked only into cdp-skill-mcp, so that the
// SDK's initialisation costs no other command anything.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cdp-skill/cdp-skill/cmd"
	"github.com/cdp-skill/cdp-skill/runtime"
)

// instructions is what an MCP host shows the model about the server.
const instructions = `cdp-skill drives Chrome. Open a page with tabs {"action":"open","url":"…"}; the answer names the tab ("t1"): pass it as "tab" from then on. Each tool takes a list of its own steps, run in order in one call: observe (snapshot, query, extract, screenshot…), interact (goto, click, fill, select, press, drag, upload…), evaluate (page JavaScript: pageFunction, poll, pipeline, hooks), network_storage (routes, cookies, storage state, HAR). Targets are refs from a snapshot (s1e4), CSS selectors, {"text":…} or {"label":…}. Each answer is one JSON object: status, each step's output, the page context, what changed and the viewport snapshot; a failed step carries its error and what to try next. No image unless asked: a screenshot step, or "capture":"full". run_recipe runs Starlark (loops, branches); compile turns steps into a recipe. Tabs a session opens close when it ends unless opened with "keep":true. What you learn about a site can be saved for later agents with network_storage writeSiteProfile.`

// server is one MCP server: its tools run on one kept pool of connections
// and tab sessions, shared by its sessions.
type server struct {
	host *cmd.MCPHost
	pool *runtime.Pool
	seq  *sequencer
	tabs *sessionTabs
	// cancels are the HTTP calls cancelled (stdio: orderedConn).
	cancels httpCancels
}

// Serve serves MCP for host: on stdio, or Streamable HTTP with host.HTTP.
func Serve(ctx context.Context, host *cmd.MCPHost) error {
	s := &server{host: host, pool: runtime.NewPool(), seq: newSequencer(), tabs: newSessionTabs()}
	s.pool.KeepEmulation = true // a viewport set by one call lasts for the next
	s.pool.KeepNetworkLog = true
	defer s.pool.Close()
	if host.HTTP != "" {
		return s.serveHTTP(ctx)
	}
	srv := s.newServer(nil)
	in, ok := host.Stdin().(io.ReadCloser) // closing stdin ends a blocked read
	if !ok {
		in = io.NopCloser(host.Stdin())
	}
	t := &orderedTransport{Transport: &lineTransport{r: in, w: host.Stdout()}, seq: s.seq}
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		ss.Close()
		err = nil
	}
	s.tabs.closeSession(context.WithoutCancel(ctx), s, ss.ID())
	if err != nil && !errors.Is(err, mcp.ErrConnectionClosed) && ctx.Err() == nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

// newServer makes the SDK server with the tools and exactly the
// capabilities served: tools, no logging, prompts or resources. ended,
// when given, runs with each session's id once the session has ended.
func (s *server) newServer(ended func(session string)) *mcp.Server {
	opts := &mcp.ServerOptions{
		Instructions: instructions,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	}
	if ended != nil {
		opts.InitializedHandler = func(_ context.Context, req *mcp.InitializedRequest) {
			ss := req.Session
			go func() {
				ss.Wait()
				ended(ss.ID())
			}()
		}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "cdp-skill", Title: "cdp-skill: Chrome for agents", Version: s.host.Version}, opts)
	for _, t := range s.tools() {
		srv.AddTool(t.tool, t.handler)
	}
	srv.AddReceivingMiddleware(refuseUndeclared)
	return srv
}

// undeclared are the methods of capabilities the server does not declare:
// the SDK would answer them anyway.
var undeclared = map[string]bool{
	"logging/setLevel": true, "prompts/list": true, "prompts/get": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true, "completion/complete": true,
}

// refuseUndeclared answers "method not found" to a method of a capability
// the server did not declare.
func refuseUndeclared(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if undeclared[method] {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q (this server declares only the tools capability)", method)}
		}
		return next(ctx, method, req)
	}
}
