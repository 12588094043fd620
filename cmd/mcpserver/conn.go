package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// metaSeq is the _meta key under which the connection hands a tools/call
// its arrival ticket (any value a client sends under it is replaced).
const metaSeq = "dev.cdp-skill/seq"

// orderedTransport wraps a transport so that tool calls keep their arrival
// order per tab and a cancelled call gets no response (the MCP spec: the
// receiver of a cancellation should not answer the request; the SDK
// answers "context canceled").
type orderedTransport struct {
	mcp.Transport
	seq *sequencer
}

func (t *orderedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &orderedConn{Connection: c, seq: t.seq, tickets: map[string]uint64{}, cancelled: map[string]bool{}}, nil
}

// orderedConn is one connection of an orderedTransport.
type orderedConn struct {
	mcp.Connection
	seq *sequencer

	mu        sync.Mutex
	tickets   map[string]uint64 // the ticket of each call in flight, by its id
	cancelled map[string]bool   // calls the client cancelled, by id
}

// Read stamps each tools/call with its ticket and notes cancellations.
func (c *orderedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		return msg, err
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return msg, nil
	}
	switch {
	case req.Method == "tools/call" && req.IsCall():
		c.stamp(req)
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil && p.RequestID != nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				c.mu.Lock()
				if _, running := c.tickets[idKey(id)]; running {
					c.cancelled[idKey(id)] = true
				}
				c.mu.Unlock()
			}
		}
	}
	return msg, nil
}

// stamp takes the call's ticket and writes it into its params' _meta.
func (c *orderedConn) stamp(req *jsonrpc.Request) {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil || params == nil {
		return // the SDK answers malformed params
	}
	seq := c.seq.arrive(tabKey(params["arguments"]))
	var meta map[string]json.RawMessage
	if json.Unmarshal(params["_meta"], &meta) != nil || meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[metaSeq], _ = json.Marshal(seq)
	params["_meta"], _ = json.Marshal(meta)
	data, err := json.Marshal(params)
	if err != nil {
		c.seq.done(seq)
		return
	}
	req.Params = data
	c.mu.Lock()
	c.tickets[idKey(req.ID)] = seq
	c.mu.Unlock()
}

// Write drops the response to a cancelled call and retires the ticket of
// every answered call (also one whose handler never ran).
func (c *orderedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.Connection.Write(ctx, msg)
	}
	key := idKey(resp.ID)
	c.mu.Lock()
	seq, hadTicket := c.tickets[key]
	delete(c.tickets, key)
	drop := c.cancelled[key]
	delete(c.cancelled, key)
	c.mu.Unlock()
	if hadTicket {
		c.seq.done(seq)
	}
	if drop {
		return nil
	}
	return c.Connection.Write(ctx, msg)
}

// idKey is a request id as a map key: its type and value (the string "1"
// and the number 1 are different ids).
func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// tabKey is the tab a call's arguments name ("" for none): the key of its
// queue.
func tabKey(args json.RawMessage) string {
	var a struct {
		Tab any `json:"tab"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	if s, ok := a.Tab.(string); ok {
		return s
	}
	return ""
}
