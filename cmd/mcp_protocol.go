package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// The MCP protocol versions served, newest first: those of the MCP Go SDK
// v1.8.0. From 2026-07-28 (SEP-2575) a request names its version in its
// _meta and there is no initialize handshake (server/discover instead);
// from 2025-06-18 JSON-RPC batches are gone.
const (
	mcpVersionStateless = "2026-07-28"
	mcpVersionHandshake = "2025-11-25" // the newest version initialize negotiates
	mcpVersionNoBatches = "2025-06-18"
)

var mcpVersions = []string{mcpVersionStateless, mcpVersionHandshake, mcpVersionNoBatches, "2025-03-26", "2024-11-05"}

// mcpCodeUnsupportedVersion answers a request of a version we do not speak
// (SEP-2575).
const mcpCodeUnsupportedVersion = -32022

// _meta keys of the 2026-07-28 protocol.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// mcpImplementation names the server.
type mcpImplementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// mcpTool is a tool as tools/list shows it, and its handler.
type mcpTool struct {
	Annotations *toolAnnotations `json:"annotations,omitempty"`
	Description string           `json:"description,omitempty"`
	InputSchema any              `json:"inputSchema"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`

	// call runs the tool on its raw arguments (nil when absent).
	call func(ctx context.Context, args json.RawMessage) *toolResult
}

// toolAnnotations are hints about a tool's behaviour; the two booleans are
// always sent, as the SDK did.
type toolAnnotations struct {
	IdempotentHint bool  `json:"idempotentHint"`
	OpenWorldHint  *bool `json:"openWorldHint,omitempty"`
	ReadOnlyHint   bool  `json:"readOnlyHint"`
}

// toolResult is a tools/call result: text and image content, and isError
// when the tool failed.
type toolResult struct {
	Content []any `json:"content"`
	IsError bool  `json:"isError,omitempty"`
}

// textContent and imageContent are the content kinds tools answer with.
type textContent struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

type imageContent struct {
	Type     string `json:"type"` // "image"
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"` // base64 on the wire
}

func newText(s string) textContent { return textContent{Type: "text", Text: s} }

// mcpServerInfo is what the server tells a client about itself.
type mcpServerInfo struct {
	impl         mcpImplementation
	instructions string
	tools        []*mcpTool // sorted by name
}

// mcpProtocol serves MCP's methods to one client over one connection.
type mcpProtocol struct {
	info *mcpServerInfo
	conn *rpcConn

	mu      sync.Mutex
	version string // negotiated by initialize; "" before

	listOnce sync.Once
	list     json.RawMessage // the tools/list result, encoded once
}

// serveMCPSession serves MCP on r and w until r ends or ctx does.
func serveMCPSession(ctx context.Context, info *mcpServerInfo, r io.Reader, w io.Writer) error {
	slices.SortFunc(info.tools, func(a, b *mcpTool) int { return strings.Compare(a.Name, b.Name) })
	s := &mcpProtocol{info: info}
	s.conn = newRPCConn(s, w)
	return s.conn.serve(ctx, r)
}

func (s *mcpProtocol) inOrder(method string) bool { return method == "initialize" }

func (s *mcpProtocol) batchError() *rpcError {
	s.mu.Lock()
	v := s.version
	s.mu.Unlock()
	if v >= mcpVersionNoBatches {
		return rpcErrorf(rpcInvalidRequest, "invalid request: JSON-RPC batching is not supported in %s and later (negotiated version: %s)", mcpVersionNoBatches, v)
	}
	return nil
}

// handle answers a request or takes a notification.
func (s *mcpProtocol) handle(ctx context.Context, req *rpcRequest) (any, error) {
	if !req.isCall() {
		s.notification(req)
		return nil, nil
	}
	if p := bytes.TrimSpace(req.Params); len(p) > 0 && p[0] != '{' && !bytes.Equal(p, []byte("null")) {
		return nil, rpcErrorf(rpcInvalidParams, "invalid params: the params of %q must be an object", req.Method)
	}
	version, err := statelessVersion(req.Params)
	if err != nil {
		return nil, err
	}
	if version != "" {
		return s.stateless(ctx, req, version)
	}
	switch req.Method {
	case "initialize":
		return s.initialize(req.Params)
	case "ping":
		return struct{}{}, nil
	case "server/discover":
		return nil, rpcErrorf(rpcMethodNotFound, "%q is only supported in protocol version >= %s", req.Method, mcpVersionStateless)
	}
	if !s.knows(req.Method) {
		return nil, rpcErrorf(rpcMethodNotFound, "method not found: %q", req.Method)
	}
	s.mu.Lock()
	started := s.version != ""
	s.mu.Unlock()
	if !started {
		return nil, rpcErrorf(rpcInvalidRequest, "method %q is invalid during session initialization: send initialize first", req.Method)
	}
	return s.method(ctx, req)
}

// notification takes a notification: a cancellation stops its request;
// the rest (notifications/initialized among them: calls are served from
// the initialize answer on, as the SDK did) need nothing.
func (s *mcpProtocol) notification(req *rpcRequest) {
	if req.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) == nil && validID(p.RequestID) {
		s.conn.cancel(p.RequestID)
	}
}

// methods are the methods served after initialize (or per request in the
// 2026-07-28 protocol). Prompts and resources are empty lists and logging
// levels are accepted, as the SDK answered them.
var mcpMethods = []string{"tools/list", "tools/call", "prompts/list", "resources/list", "resources/templates/list", "logging/setLevel"}

func (s *mcpProtocol) knows(method string) bool { return slices.Contains(mcpMethods, method) }

func (s *mcpProtocol) method(ctx context.Context, req *rpcRequest) (any, error) {
	switch req.Method {
	case "tools/list":
		return s.listTools(req.Params)
	case "tools/call":
		return s.callTool(ctx, req.Params)
	case "prompts/list":
		return listResult("prompts"), nil
	case "resources/list":
		return listResult("resources"), nil
	case "resources/templates/list":
		return listResult("resourceTemplates"), nil
	case "logging/setLevel":
		return struct{}{}, nil
	}
	return nil, rpcErrorf(rpcMethodNotFound, "method not found: %q", req.Method)
}

// initializeParams is initialize's argument, as far as we read it.
type initializeParams struct {
	ProtocolVersion string `json:"protocolVersion"`
}

// initializeResult answers initialize.
type initializeResult struct {
	Capabilities    map[string]any     `json:"capabilities"`
	Instructions    string             `json:"instructions,omitempty"`
	ProtocolVersion string             `json:"protocolVersion"`
	ServerInfo      *mcpImplementation `json:"serverInfo"`
}

// initialize negotiates the version: the client's when we speak it (and it
// predates server/discover), else the newest one initialize can agree on.
func (s *mcpProtocol) initialize(params json.RawMessage) (any, error) {
	if isAbsent(params) {
		return nil, rpcErrorf(rpcInvalidParams, `invalid params: initialize needs "params" with the "protocolVersion"`)
	}
	var p initializeParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, rpcErrorf(rpcInvalidParams, "invalid params: %v", err)
	}
	version := mcpVersionHandshake
	if slices.Contains(mcpVersions, p.ProtocolVersion) && p.ProtocolVersion < mcpVersionStateless {
		version = p.ProtocolVersion
	}
	s.mu.Lock()
	again := s.version != ""
	if !again {
		s.version = version
	}
	s.mu.Unlock()
	if again {
		return nil, rpcErrorf(rpcInvalidRequest, `duplicate "initialize" received`)
	}
	return &initializeResult{
		Capabilities:    s.capabilities(),
		Instructions:    s.info.instructions,
		ProtocolVersion: version,
		ServerInfo:      &s.info.impl,
	}, nil
}

// capabilities: tools only. The list never changes, so no listChanged.
func (s *mcpProtocol) capabilities() map[string]any {
	return map[string]any{"tools": struct{}{}}
}

// listTools answers tools/list: every tool in one page.
func (s *mcpProtocol) listTools(params json.RawMessage) (any, error) {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if !isAbsent(params) {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, rpcErrorf(rpcInvalidParams, "invalid params: %v", err)
		}
	}
	if p.Cursor != nil && *p.Cursor != "" {
		return nil, rpcErrorf(rpcInvalidParams, "invalid params: unknown cursor %q: the tool list is one page", *p.Cursor)
	}
	s.listOnce.Do(func() {
		s.list, _ = marshalPlain(map[string]any{"ttlMs": 0, "cacheScope": "public", "tools": s.info.tools})
	})
	return s.list, nil
}

// listResult is an empty list of kind, with the SDK's cache hints.
func listResult(kind string) map[string]any {
	return map[string]any{"ttlMs": 0, "cacheScope": "public", kind: []any{}}
}

// callToolParams is tools/call's argument.
type callToolParams struct {
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// callTool runs a tool. A tool's own failure is a result with isError; a
// call that names no known tool is the client's error.
func (s *mcpProtocol) callTool(ctx context.Context, params json.RawMessage) (any, error) {
	if isAbsent(params) {
		return nil, rpcErrorf(rpcInvalidParams, `invalid params: tools/call needs "params" with the tool's "name" and "arguments"`)
	}
	var p callToolParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, rpcErrorf(rpcInvalidParams, "invalid params: %v", err)
	}
	name := ""
	if p.Name != nil {
		name = *p.Name
	}
	i := slices.IndexFunc(s.info.tools, func(t *mcpTool) bool { return t.Name == name })
	if i < 0 {
		return nil, rpcErrorf(rpcInvalidParams, "unknown tool %q", name)
	}
	return s.info.tools[i].call(ctx, p.Arguments), nil
}

// statelessVersion is the 2026-07-28-or-later version a request names in
// its _meta, or "" for a request of the initialize era.
func statelessVersion(params json.RawMessage) (string, error) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if isAbsent(params) || json.Unmarshal(params, &p) != nil {
		return "", nil
	}
	var version string
	if json.Unmarshal(p.Meta[metaProtocolVersion], &version) != nil || version < mcpVersionStateless {
		return "", nil
	}
	if raw, ok := p.Meta[metaClientInfo]; ok && !isAbsent(raw) && !isObject(raw) {
		return "", rpcErrorf(rpcInvalidParams, "invalid _meta field %q", metaClientInfo)
	}
	if raw := p.Meta[metaClientCapabilities]; !isObject(raw) {
		return "", rpcErrorf(rpcInvalidParams, "missing or invalid _meta field %q", metaClientCapabilities)
	}
	return version, nil
}

// stateless serves a request of the 2026-07-28 protocol: no handshake, and
// every result names the server and is marked complete.
func (s *mcpProtocol) stateless(ctx context.Context, req *rpcRequest, version string) (any, error) {
	if !slices.Contains(mcpVersions, version) {
		data, _ := json.Marshal(map[string]any{"supported": mcpVersions, "requested": version})
		return nil, &rpcError{Code: mcpCodeUnsupportedVersion, Message: "unsupported protocol version", Data: data}
	}
	var res any
	var err error
	switch req.Method {
	case "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return nil, rpcErrorf(rpcMethodNotFound, "%q is not supported in the new protocol", req.Method)
	case "server/discover":
		res = map[string]any{"ttlMs": 0, "cacheScope": "public", "supportedVersions": mcpVersions,
			"capabilities": s.capabilities(), "instructions": s.info.instructions}
	default:
		if !s.knows(req.Method) {
			return nil, rpcErrorf(rpcMethodNotFound, "method not found: %q", req.Method)
		}
		res, err = s.method(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	return s.stamp(res)
}

// stamp adds resultType "complete" and the server's identity to a result.
func (s *mcpProtocol) stamp(res any) (any, error) {
	data, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	var m, meta map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	if json.Unmarshal(m["_meta"], &meta) != nil || meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[metaServerInfo], _ = json.Marshal(s.info.impl)
	m["_meta"], _ = json.Marshal(meta)
	m["resultType"] = json.RawMessage(`"complete"`)
	return m, nil
}

// isAbsent: no value, or null.
func isAbsent(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || bytes.Equal(raw, []byte("null"))
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}
