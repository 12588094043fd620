package cdpconn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cdp-skill/cdp-skill/browser/failure"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp/remote"
)

// ErrConnClosed is returned for calls on a connection that has gone away.
var ErrConnClosed = errors.New("connection to Chrome closed")

var MarshalOptions = jsonv2.JoinOptions(jsonv2.DefaultOptionsV2(), jsonv2.AllowInvalidUTF8(true))

// Conn multiplexes one WebSocket to the browser endpoint into flat-mode
// sessions. It is deliberately small: chromedp's Context would enable ten
// domains (DOM and CSS among them) on every attach, a cost each short-lived
// invocation would pay; here a session enables only what its program needs.
type Conn struct {
	tr   *remote.Conn
	next atomic.Int64
	// heard says the peer sent at least one message.
	heard atomic.Bool
	// url is the WebSocket URL dialled (with its credentials: never
	// shown, see lostError).
	url string
	// closing says Close was called: the end of the connection is ours.
	closing atomic.Bool

	mu      sync.Mutex
	pending map[int64]*pendingCall
	subs    map[subKey][]*subscription
	closed  chan struct{}
	err     error
	// broken are the sessions whose page cannot answer (crashed renderer,
	// blocked main thread) and why; see health.go.
	broken map[target.SessionID]*sessionFault
	// faultChanged is closed (and cleared) when a fault changes.
	faultChanged chan struct{}
	// onDetach are called when Chrome detaches their session (its tab
	// closed); see Session.OnDetach.
	onDetach map[target.SessionID]map[*func()]struct{}
}

// pendingCall is a command waiting for its reply.
type pendingCall struct {
	ch      chan reply
	session target.SessionID
	method  string
}

// reply is a command's answer, or the reason it will never come.
type reply struct {
	msg *cdproto.Message
	err error
}

type subKey struct {
	session target.SessionID
	method  string
}

// Dial connects to the browser WebSocket URL.
func Dial(ctx context.Context, wsURL string) (*Conn, error) {
	tr, err := remote.DialContext(ctx, wsURL)
	if err != nil {
		return nil, dialError(wsURL, err)
	}
	c := &Conn{
		tr:       tr,
		url:      wsURL,
		pending:  map[int64]*pendingCall{},
		subs:     map[subKey][]*subscription{},
		closed:   make(chan struct{}),
		broken:   map[target.SessionID]*sessionFault{},
		onDetach: map[target.SessionID]map[*func()]struct{}{},
	}
	go c.readLoop()
	return c, nil
}

// Close closes the WebSocket. A peer that never sent a message (it took
// the connection and does not speak CDP) is not waited for: the close
// handshake would wait for its close frame in vain.
func (c *Conn) Close() error {
	c.closing.Store(true)
	if !c.heard.Load() {
		go c.tr.Close()
		return nil
	}
	err := c.tr.Close()
	<-c.closed
	return err
}

// Browser returns the browser-level session.
func (c *Conn) Browser() *Session { return &Session{conn: c} }

// Session returns the flat session with the given id.
func (c *Conn) Session(id target.SessionID) *Session { return &Session{conn: c, id: id} }

func (c *Conn) readLoop() {
	var err error
	for {
		msg := new(cdproto.Message)
		if err = c.tr.Read(context.Background(), msg); err != nil {
			break
		}
		c.heard.Store(true)
		if msg.ID != 0 {
			c.mu.Lock()
			pc := c.pending[msg.ID]
			delete(c.pending, msg.ID)
			c.mu.Unlock()
			if pc != nil {
				pc.ch <- reply{msg: msg}
			}
			continue
		}
		c.mu.Lock()
		c.noteHealth(msg)
		subs := c.subs[subKey{msg.SessionID, string(msg.Method)}]
		for _, s := range subs {
			if s.tagged {
				s.push(tagEvent(string(msg.Method), msg.Params))
			} else {
				s.push(msg.Params)
			}
		}
		if msg.Method == "Target.detachedFromTarget" {
			c.detachSubscriptions(msg.Params)
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.err = c.lostError(err)
	for id, pc := range c.pending {
		close(pc.ch)
		delete(c.pending, id)
	}
	for k, subs := range c.subs {
		for _, s := range subs {
			s.finish()
		}
		delete(c.subs, k)
	}
	c.mu.Unlock()
	close(c.closed)
}

// detachSubscriptions ends the subscriptions and pending calls of a session
// that Chrome detached, so waiters see the end instead of hanging. c.mu is
// held.
func (c *Conn) detachSubscriptions(params jsonv2.Value) {
	var ev target.EventDetachedFromTarget
	if jsonv2.Unmarshal(params, &ev) != nil || ev.SessionID == "" {
		return
	}
	for k, subs := range c.subs {
		if k.session == ev.SessionID {
			for _, s := range subs {
				s.finish()
			}
			delete(c.subs, k)
		}
	}
	for f := range c.onDetach[ev.SessionID] {
		(*f)()
	}
	delete(c.onDetach, ev.SessionID)
	// Calls the closing tab will never answer (sent just before it went).
	for id, pc := range c.pending {
		if pc.session == ev.SessionID {
			pc.ch <- reply{err: TabGone(&ProtocolError{Method: pc.method, Message: "the session was detached while the call waited"})}
			delete(c.pending, id)
		}
	}
}

func (c *Conn) call(ctx context.Context, session target.SessionID, method string, params, res any) error {
	wait, err := c.send(ctx, session, method, params)
	if err != nil {
		return err
	}
	return wait(ctx, res)
}

// send writes a command and returns the wait for its reply, so a caller can
// send several in order before waiting for any (see Session.Send).
func (c *Conn) send(ctx context.Context, session target.SessionID, method string, params any) (func(ctx context.Context, res any) error, error) {
	var buf []byte
	if params != nil {
		var err error
		if buf, err = jsonv2.Marshal(params, MarshalOptions); err != nil {
			return nil, fmt.Errorf("%s: encode params: %w", method, err)
		}
	}
	id := c.next.Add(1)
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	if err := c.faultFor(session, method); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	c.pending[id] = &pendingCall{ch: ch, session: session, method: method}
	c.mu.Unlock()
	msg := &cdproto.Message{ID: id, SessionID: session, Method: cdproto.MethodType(method), Params: buf}
	if err := c.tr.Write(ctx, msg); err != nil {
		c.forget(id)
		if ctx.Err() == nil {
			err = c.lostError(err)
		}
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return func(ctx context.Context, res any) error { return c.await(ctx, id, ch, session, method, res) }, nil
}

// await waits for the reply of command id and decodes its result into res.
func (c *Conn) await(ctx context.Context, id int64, ch chan reply, session target.SessionID, method string, res any) error {
	select {
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	case r, ok := <-ch:
		if !ok {
			return c.err
		}
		if r.err != nil {
			return r.err
		}
		reply := r.msg
		if reply.Error != nil {
			pe := &ProtocolError{Method: method, Code: reply.Error.Code, Message: reply.Error.Message}
			if session != "" && strings.HasPrefix(reply.Error.Message, sessionGone) {
				return TabGone(pe)
			}
			return pe
		}
		if res != nil && len(reply.Result) > 0 {
			if err := jsonv2.Unmarshal(reply.Result, res, MarshalOptions); err != nil {
				return fmt.Errorf("%s: decode result: %w", method, err)
			}
		}
		return nil
	}
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// subscribeAll is one feed of several events of a session, in the order
// Chrome sent them, each tagged with its method (see untagEvent).
func (c *Conn) subscribeAll(session target.SessionID, methods []string) (<-chan jsonv2.Value, func() int64, func()) {
	s := newSubscription()
	s.tagged = true
	return s.out, s.received, c.register(s, session, methods)
}

// register files s under each of the session's methods and returns the
// function that takes it out (once) and stops it.
func (c *Conn) register(s *subscription, session target.SessionID, methods []string) func() {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		s.finish()
		return func() {}
	}
	for _, m := range methods {
		k := subKey{session, m}
		c.subs[k] = append(c.subs[k], s)
	}
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			for _, m := range methods {
				k := subKey{session, m}
				list := c.subs[k]
				for i, x := range list {
					if x == s {
						c.subs[k] = append(list[:i:i], list[i+1:]...)
						break
					}
				}
			}
			c.mu.Unlock()
			s.stop()
		})
	}
}

// taggedEvent is an event of a feed of several methods.
type taggedEvent struct {
	Method string       `json:"method"`
	Params jsonv2.Value `json:"params"`
}

func tagEvent(method string, params jsonv2.Value) jsonv2.Value {
	if len(params) == 0 {
		params = jsonv2.Value("{}")
	}
	raw, _ := jsonv2.Marshal(taggedEvent{Method: method, Params: params})
	return raw
}

// UntagEvent splits an event of a subscribeAll feed.
func UntagEvent(raw jsonv2.Value) (method string, params jsonv2.Value) {
	var ev taggedEvent
	if jsonv2.Unmarshal(raw, &ev) != nil {
		return "", nil
	}
	return ev.Method, ev.Params
}

func (c *Conn) subscribe(session target.SessionID, method string) (<-chan jsonv2.Value, func()) {
	ch, _, stop := c.subscribeCounted(session, method)
	return ch, stop
}

func (c *Conn) subscribeCounted(session target.SessionID, method string) (<-chan jsonv2.Value, func() int64, func()) {
	s := newSubscription()
	return s.out, s.received, c.register(s, session, []string{method})
}

// sessionGone is Chrome's answer to a call on a session whose tab was
// closed (or detached) a moment before.
const sessionGone = "Session with given id not found"

// TabClosedText begins the error of a call on a tab that went away during
// the step (tabGone).
const TabClosedText = "the tab was closed during this step"

// TabGone is the error of a call on a tab that went away during the step.
func TabGone(pe *ProtocolError) *failure.Error {
	e := &failure.Error{Kind: failure.KindContextDestroyed, Err: pe, Message: TabClosedText + " (by the page, the user or another agent)"}
	return e.WithAdvice(suggest.New("run %s, then switch to a tab that is open (%s) or open a new one with %s", ListTabs, SwitchTab, OpenTab))
}

// ProtocolError is an error answer from Chrome to a command.
type ProtocolError struct {
	Method  string
	Code    int64
	Message string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.Method, e.Message, e.Code)
}

// Session is one CDP session (the browser, or a page attached in flat mode).
// It implements cdp.Session so cdproto's typed commands run on it:
//
//	res, err := cdp.Call(ctx, sess, page.Navigate, page.NavigateParams{URL: u})
type Session struct {
	conn *Conn
	id   target.SessionID
}

var _ cdp.Session = (*Session)(nil)

// OnDetach calls f (at once, holding the connection; it must not block)
// when Chrome detaches the session: its tab closed. The returned func
// forgets f.
func (s *Session) OnDetach(f func()) (forget func()) {
	s.conn.mu.Lock()
	defer s.conn.mu.Unlock()
	fs := s.conn.onDetach[s.id]
	if fs == nil {
		fs = map[*func()]struct{}{}
		s.conn.onDetach[s.id] = fs
	}
	fs[&f] = struct{}{}
	return func() {
		s.conn.mu.Lock()
		defer s.conn.mu.Unlock()
		delete(fs, &f)
		if len(fs) == 0 {
			// (A session id is never used again once detached.)
			delete(s.conn.onDetach, s.id)
		}
	}
}

// ID returns the session id ("" for the browser session).
func (s *Session) ID() target.SessionID { return s.id }

// Call sends a command and decodes its result into res.
func (s *Session) Call(ctx context.Context, method string, params, res any) error {
	return s.conn.call(ctx, s.id, method, params, res)
}

// Send writes a command without waiting for its reply and returns the wait
// for it. Commands sent in turn reach Chrome in that order: a mouse move
// sent right before a press is handled with it, instead of waiting for the
// renderer's next frame as a move alone does.
func (s *Session) Send(ctx context.Context, method string, params any) (func(ctx context.Context, res any) error, error) {
	return s.conn.send(ctx, s.id, method, params)
}

// SubscribeAll buffers the events of several methods on this session in
// one feed, in the order Chrome sent them (read each with untagEvent).
func (s *Session) SubscribeAll(methods ...string) (<-chan jsonv2.Value, func()) {
	ch, _, stop := s.conn.subscribeAll(s.id, methods)
	return ch, stop
}

// SubscribeAllCounted is SubscribeAll with the count of events received
// so far (see SubscribeCounted).
func (s *Session) SubscribeAllCounted(methods ...string) (<-chan jsonv2.Value, func() int64, func()) {
	return s.conn.subscribeAll(s.id, methods)
}

// Subscribe buffers the events of method on this session.
func (s *Session) Subscribe(method string) (<-chan jsonv2.Value, func()) {
	return s.conn.subscribe(s.id, method)
}

// SubscribeCounted is Subscribe that also returns how many events have
// arrived so far: a caller that read fewer knows more are on their way
// (events arrive in order with command answers, so after an answer every
// event Chrome sent before it is counted).
func (s *Session) SubscribeCounted(method string) (<-chan jsonv2.Value, func() int64, func()) {
	return s.conn.subscribeCounted(s.id, method)
}

// subscription is an unbounded event queue: the read loop never blocks on a
// slow consumer.
type subscription struct {
	// tagged subscriptions take several methods (subscribeAll).
	tagged bool
	mu     sync.Mutex
	count  int64
	queue  []jsonv2.Value
	wake   chan struct{}
	done   chan struct{}
	out    chan jsonv2.Value
	once   sync.Once
	final  sync.Once
}

func newSubscription() *subscription {
	s := &subscription{wake: make(chan struct{}, 1), done: make(chan struct{}), out: make(chan jsonv2.Value)}
	go s.pump()
	return s
}

// received is how many events were pushed.
func (s *subscription) received() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

func (s *subscription) push(v jsonv2.Value) {
	s.mu.Lock()
	s.count++
	s.queue = append(s.queue, v)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// finish delivers what is queued, then closes out.
func (s *subscription) finish() { s.final.Do(func() { close(s.wake) }) }

// stop drops what is queued and closes out.
func (s *subscription) stop() { s.once.Do(func() { close(s.done) }) }

func (s *subscription) pump() {
	defer close(s.out)
	for {
		s.mu.Lock()
		var v jsonv2.Value
		have := len(s.queue) > 0
		if have {
			v = s.queue[0]
			s.queue = s.queue[1:]
		}
		s.mu.Unlock()
		if have {
			select {
			case s.out <- v:
				continue
			case <-s.done:
				return
			}
		}
		select {
		case _, ok := <-s.wake:
			if !ok {
				s.drain()
				return
			}
		case <-s.done:
			return
		}
	}
}

func (s *subscription) drain() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.mu.Unlock()
			return
		}
		v := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		select {
		case s.out <- v:
		case <-s.done:
			return
		}
	}
}

// Decode unmarshals a raw CDP event payload.
func Decode(raw jsonv2.Value, out any) error {
	return jsonv2.Unmarshal(raw, out, MarshalOptions)
}

// Feed is one counted event stream (Session.SubscribeCounted) and how
// many of its events the reader handled: a reader that compares the two
// after a round trip knows it took in every event Chrome sent before it.
type Feed struct {
	// Received is the stream's count of events received.
	Received func() int64
	// Read counts the events the reader handled.
	Read atomic.Int64
}
