package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"regexp"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
)

// pageChannel is one call's way to pass elements into and out of the
// page's own world (where agent JavaScript runs) with nothing of
// cdp-skill's kept there: a window property named at random for the
// call, defined just before it is read and deleted as it is read. A page
// cannot name it ahead of the call, and it is gone when the call
// answers. The same name keys the placeholder the serializer leaves for
// an element's ref (serialize.js serElement), so a page's own value
// cannot forge one.
type pageChannel struct{ key string }

// newPageChannel makes a channel with a fresh random name.
func newPageChannel() pageChannel {
	var b [8]byte
	rand.Read(b[:])
	return pageChannel{key: "_" + hex.EncodeToString(b[:])}
}

// serializer is a JavaScript function (v, keep) that serializes v in the
// page's world: the serializer bundle is a function literal in it, made
// afresh for the call (typed: the spec's {type, value} shape). With keep,
// it leaves the elements it met in the channel for withRefs.
func (c pageChannel) serializer(typed bool) string {
	m := ppSerialize.name
	if typed {
		m = ppSerializeTyped.name
	}
	k := jsString(c.key)
	return "((v, keep) => { const E = (" + pageBundle().source + ")(); const out = E." + m + "(v, " + k + ");" +
		" if (keep && E.serialized.length) Object.defineProperty(window, " + k + ", {value: E.serialized, configurable: true});" +
		" return out; })"
}

// take is a JavaScript expression that reads what the channel holds and
// deletes it.
func (c pageChannel) take() string {
	return "(() => { const k = " + jsString(c.key) + ", v = window[k]; delete window[k]; return v; })()"
}

// put is a function declaration (Runtime.callFunctionOn) that leaves its
// arguments in the channel.
func (c pageChannel) put() string {
	return "function(...els) { Object.defineProperty(window, " + jsString(c.key) + ", {value: els, configurable: true}); }"
}

// refPattern matches the serializer's placeholder of an element's ref.
func (c pageChannel) refPattern() *regexp.Regexp {
	return regexp.MustCompile(`,"` + regexp.QuoteMeta(c.key) + `":([0-9]+)`)
}

// drop deletes what the channel may still hold (a call that failed before
// it took it); errors do not matter.
func (c pageChannel) drop(sess *Session, ctxID runtime.ExecutionContextID) {
	ctx, cancel := context.WithTimeout(context.Background(), releaseWait)
	defer cancel()
	cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "delete window[" + jsString(c.key) + "]", ContextID: ctxID})
}
