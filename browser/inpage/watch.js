// watch.js — what an action started in the page: timers, fetches and
// XHRs it scheduled, and whether the DOM changed. Module of the in-page
// engine.
//
// watchArm runs just before an action and wraps setTimeout, clearTimeout,
// requestAnimationFrame, cancelAnimationFrame, fetch and
// XMLHttpRequest.prototype.send; watchSettle runs right after it and
// resolves once that work is done (or its bounds pass), then puts the
// page's own functions back. A timer or frame callback counts when it was
// set while an input event was being dispatched (the action's own
// handlers, inside shadow roots too: the task of an event seen at the
// window in capture phase) or
// from a counted callback (frame callbacks to a depth of WATCH_FRAME_DEPTH,
// so an endless animation loop is not waited for); a request counts when
// such code starts it, or within the idle window after a counted one,
// directly or from a timer set there (a chained fetch, a fetch-then-wait
// loop: to a depth of WATCH_CHAIN_DEPTH requests). A click that changes
// nothing, or changes the DOM in its handlers, settles a task after it
// ran.

const WATCH_TIMER_MAX = 1000; // longer timers are not the action's to wait for
const WATCH_NET_IDLE = 300; // spec §19.4 network settle: idle window…
const WATCH_NET_MAX = 2000; // …and its bound
const WATCH_TIMERS_MAX = 1500; // bound on waiting for counted timers
const WATCH_DOM_MAX = 150; // bound on waiting for DOM mutations to stop
const WATCH_EXPIRE = 60000; // a watch nobody settles undoes itself
const WATCH_FRAME_DEPTH = 3; // frame callbacks scheduled from frame callbacks
const WATCH_BOOT_DEPTH = 2; // start-up timers set from start-up timers (a polling loop is not waited for)
const WATCH_BOOT_MAX = 1000; // bound on a start-up settle (a long poll, a chat socket's fetch)
const WATCH_BOOT_IDLE = 100; // its network idle window: what a response sets off starts at once
const WATCH_CHAIN_DEPTH = 4; // requests started in the idle window of a counted one, one after another
// WATCH_EVENTS are the events an action dispatches; while one is handled
// (until its task ends), the page's timers are the action's.
// WATCH_QUICK_EVENTS are the events after which an action that scheduled
// nothing is done at once (a plain click); any other event (input, change,
// keys, drops) may run async handlers — a file read, a validation — so the
// settle waits a task.
const WATCH_QUICK_EVENTS = new Set(['pointerdown', 'pointerup', 'pointerover', 'mousedown', 'mouseup', 'mouseover', 'click', 'focusin', 'focusout']);
const WATCH_EVENTS = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu',
  'pointerover', 'mouseover', 'keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'change', 'submit', 'focusin',
  'focusout', 'dragstart', 'dragover', 'drop', 'dragend', 'wheel', 'scroll'];

let watchState = null;

// listenOnce adds, once per document, the listeners that tell the armed
// watch of the action's events (passive, in capture phase at the window).
// They stay between actions and pass events on only while one is armed:
// adding and removing them with each action cost more than the rest of
// the arming.
let listening = false;
function onWatchedEvent(e) {
  if (watchState) watchState.onEvent(e);
}
function listenOnce() {
  if (listening) return;
  listening = true;
  for (const type of WATCH_EVENTS) window.addEventListener(type, onWatchedEvent, { capture: true, passive: true });
}

// watchArmBoot arms the watch for a document's start-up: it runs first in
// each new top document of a navigation the agent asked for (an init
// script), so the settle after the load waits for the page's own start-up
// work — a consent manager that fetches its configuration and then builds
// its dialog, a modal a load handler opens on a short timer. Counted are
// timers (up to WATCH_TIMER_MAX) set while the document loads, in its
// DOMContentLoaded and load handlers, within the idle window after a
// counted request, or from counted timers to a depth of WATCH_BOOT_DEPTH
// (a polling loop is not waited for), and requests started then.
export function watchArmBoot() {
  if (window.top !== window) return false;
  return watchArm(true);
}

// watchArm runs in the page's own world (it must wrap the page's own
// functions); the change log (changes.js) is kept in the engine's world.
// boot arms it for a document's start-up (watchArmBoot).
export function watchArm(boot) {
  if (watchState) disarmWatch(watchState);
  const w = window;
  const st = {
    boot: boot === true,
    startup: boot === true,
    timerDepth: 0,
    // timerChain is the chain depth (see lastDepth) of the counted timer
    // running now: 0 for one the action's own code set, the request
    // chain's depth for one set in a request's idle window.
    timerChain: 0,
    nativeSetTimeout: w.setTimeout,
    nativeClearTimeout: w.clearTimeout,
    nativeFetch: w.fetch,
    nativeRAF: w.requestAnimationFrame,
    nativeCAF: w.cancelAnimationFrame,
    frames: new Set(),
    frameDepth: 0,
    nativeSend: w.XMLHttpRequest && w.XMLHttpRequest.prototype.send,
    timers: new Set(),
    inTimer: 0,
    inEvent: false,
    requests: 0,
    requested: 0,
    lastRequest: 0,
    // lastDepth is the deepest chain depth of the requests that began or
    // ended since the action's own code last started one: a request the
    // action's own code started is 0; one started in the idle window of
    // a counted one, or from a timer set there, one more (chainDepth).
    lastDepth: 0,
    mutations: 0,
    // posted counts messages the action posted (a scheduler's next task,
    // e.g. React's); submitted says it submitted a form (the navigation
    // starts in a task of its own).
    posted: 0,
    submitted: false,
    otherEvents: false,
    observer: null,
    wake: null,
  };
  // inAction says the page is running what the action set off: its
  // events, the timers and frames it scheduled, what a request it started
  // led to (within the network's idle window), a document's start-up. A
  // request or timer started otherwise is the page's own (a poll) and is
  // not waited for. What a request's response leads to — a request, or a
  // timer that starts one — is followed WATCH_CHAIN_DEPTH requests deep:
  // a poll the action's task happened to run is never adopted as a loop,
  // and a loop the action starts (fetch, then set a timer to fetch
  // again) is waited for a few rounds, not to the settle's bound.
  // inItsEvents: its events, its frame callbacks, a start-up (chain 0);
  // inOwnCode adds its counted timers (which carry their own chain).
  const inItsEvents = () => st.inEvent || st.lingering || w.event !== undefined || st.frameDepth > 0 || st.startup;
  const inOwnCode = () => inItsEvents() || st.inTimer > 0;
  const inIdleWindow = () => st.requested > 0 && performance.now() - st.lastRequest < WATCH_NET_IDLE && st.lastDepth < WATCH_CHAIN_DEPTH;
  const inAction = () => inOwnCode() || inIdleWindow();
  // chainDepth is the chain depth of a request or timer starting now, or
  // -1 when it is not the action's.
  const chainDepth = () => {
    if (inItsEvents()) return 0;
    if (st.inTimer > 0) return st.timerChain;
    return inIdleWindow() ? st.lastDepth + 1 : -1;
  };
  const endOfTask = new MessageChannel();
  const portProto = w.MessagePort && w.MessagePort.prototype;
  st.nativePortPost = portProto && portProto.postMessage;
  st.nativeWinPost = w.postMessage;
  st.nativeSubmit = w.HTMLFormElement && w.HTMLFormElement.prototype.submit;
  endOfTask.port1.onmessage = () => { st.inEvent = false; };
  // The event's task has ended when a task it posts runs. A posted
  // message may run after a timer that was already due (a poll's, while
  // other tabs of the site keep the renderer busy), which then looked
  // like the action's own; a user-blocking task of the scheduler runs
  // before such timers.
  const postTask = w.scheduler && typeof w.scheduler.postTask === 'function' ? w.scheduler.postTask : null;
  const endTask = () => { st.inEvent = false; };
  st.onEvent = (e) => {
    if (e && e.type === 'submit') st.submitted = true;
    if (e && !WATCH_QUICK_EVENTS.has(e.type)) st.otherEvents = true;
    if (!st.inEvent) {
      st.inEvent = true;
      st.nativePortPost.call(endOfTask.port2, 0);
      if (postTask) postTask.call(w.scheduler, endTask, { priority: 'user-blocking' }).catch(() => {});
    }
  };
  st.endOfTask = endOfTask;
  listenOnce();
  const nudge = () => { if (st.wake) { const f = st.wake; st.wake = null; f(); } };
  const setT = function setTimeout(fn, ms, ...rest) {
    const delay = Number(ms) || 0;
    const depth = st.inTimer > 0 ? st.timerDepth + 1 : 1;
    const chain = chainDepth();
    const counted = typeof fn === 'function' && delay <= WATCH_TIMER_MAX && chain >= 0 &&
      !(st.boot && depth > WATCH_BOOT_DEPTH);
    if (!counted) return st.nativeSetTimeout.call(w, fn, ms, ...rest);
    const id = st.nativeSetTimeout.call(w, function () {
      st.timers.delete(id);
      st.inTimer++;
      const outer = st.timerDepth;
      const outerChain = st.timerChain;
      st.timerDepth = depth;
      st.timerChain = chain;
      try { return fn.apply(this, arguments); } finally { st.inTimer--; st.timerDepth = outer; st.timerChain = outerChain; nudge(); }
    }, ms, ...rest);
    st.timers.add(id);
    return id;
  };
  const clearT = function clearTimeout(id) {
    if (st.timers.delete(id)) nudge();
    return st.nativeClearTimeout.call(w, id);
  };
  const raf = function requestAnimationFrame(fn) {
    const depth = st.frameDepth > 0 ? st.frameDepth + 1 : inAction() ? 1 : 0;
    if (typeof fn !== 'function' || depth === 0 || depth > WATCH_FRAME_DEPTH) return st.nativeRAF.call(w, fn);
    const id = st.nativeRAF.call(w, function (ts) {
      st.frames.delete(id);
      const outer = st.frameDepth;
      st.frameDepth = depth;
      try { return fn.call(this, ts); } finally { st.frameDepth = outer; nudge(); }
    });
    st.frames.add(id);
    return id;
  };
  const caf = function cancelAnimationFrame(id) {
    if (st.frames.delete(id)) nudge();
    return st.nativeCAF.call(w, id);
  };
  // A request the action's own code starts begins a new chain; any other
  // keeps the deepest depth, so requests that overlap (an interval's) do
  // not take the chain back.
  const began = (depth) => { st.requests++; st.requested++; st.lastRequest = performance.now(); st.lastDepth = depth === 0 ? 0 : Math.max(st.lastDepth, depth); };
  const ended = (depth) => { st.requests--; st.lastRequest = performance.now(); st.lastDepth = Math.max(st.lastDepth, depth); nudge(); };
  if (st.nativePortPost) {
    st.portPost = function postMessage() {
      if (inAction()) st.posted++;
      return st.nativePortPost.apply(this, arguments);
    };
    portProto.postMessage = st.portPost;
  }
  if (typeof st.nativeWinPost === 'function') {
    st.winPost = function postMessage() {
      if (inAction()) st.posted++;
      return st.nativeWinPost.apply(this, arguments);
    };
    w.postMessage = st.winPost;
  }
  if (st.nativeSubmit) {
    st.submit = function submit() {
      st.submitted = true;
      return st.nativeSubmit.apply(this, arguments);
    };
    w.HTMLFormElement.prototype.submit = st.submit;
  }
  st.setT = setT;
  st.clearT = clearT;
  w.setTimeout = setT;
  w.clearTimeout = clearT;
  if (typeof st.nativeRAF === 'function') {
    st.raf = raf;
    st.caf = caf;
    w.requestAnimationFrame = raf;
    w.cancelAnimationFrame = caf;
  }
  if (typeof st.nativeFetch === 'function') {
    st.fetch = function fetch() {
      const depth = chainDepth();
      if (depth < 0) return st.nativeFetch.apply(this, arguments);
      began(depth);
      let p;
      try { p = st.nativeFetch.apply(this, arguments); } catch (e) { ended(depth); throw e; }
      p.then((r) => { st.responses.set(r, depth); ended(depth); }, () => ended(depth));
      return p;
    };
    w.fetch = st.fetch;
  }
  wrapBodyReaders(st, began, ended);
  if (st.nativeSend) {
    st.send = function send() {
      const depth = chainDepth();
      if (depth < 0) return st.nativeSend.apply(this, arguments);
      began(depth);
      const end = () => ended(depth);
      this.addEventListener('loadend', end, { once: true });
      try { return st.nativeSend.apply(this, arguments); } catch (e) { this.removeEventListener('loadend', end); end(); throw e; }
    };
    w.XMLHttpRequest.prototype.send = st.send;
  }
  if (st.boot) gateAll(st);
  const root = document.documentElement || (boot === true ? document : null);
  if (typeof MutationObserver === 'function' && root) {
    st.observer = new MutationObserver(() => {
      st.mutations++;
      nudge();
    });
    st.observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  st.expiry = st.nativeSetTimeout.call(w, () => disarmWatch(st), WATCH_EXPIRE);
  if (st.boot) {
    // Start-up ends a task after the load event's handlers ran.
    w.addEventListener('load', () => st.nativeSetTimeout.call(w, () => { st.startup = false; }, 0), { once: true });
  }
  watchState = st;
  return true;
}

// gateAll puts a gate in front of each function a start-up watch wraps:
// the page's scripts keep references to what they find (a library's saved
// setTimeout or fetch), so those references stay gates, and once the watch
// is disarmed each gate calls the page's own function straight away, or
// the armed action watch's wrapper while an action settles. The
// window and the prototypes get the page's own functions back then
// (unwrap): only the references the page kept remain. A gate reads as the
// function it stands for (name, length, source text).
let passing = false;
function gateAll(st) {
  const w = window;
  const toStr = w.Function.prototype.toString;
  const gate = (obj, key, field, native) => {
    const wrapper = st[field];
    if (!wrapper || obj[key] !== wrapper) return;
    const g = { [key]: function () {
      const self = this === undefined ? w : this;
      if (!st.off) return wrapper.apply(self, arguments);
      // An action's watch armed now sees the call through its own
      // wrapper (a debounce's or a scheduler's saved setTimeout); once:
      // a page function the wrapper calls may call the gate again.
      const via = !passing && watchState && !watchState.boot ? watchState[field] : null;
      if (typeof via !== 'function') return native.apply(self, arguments);
      passing = true;
      try { return via.apply(self, arguments); } finally { passing = false; }
    } }[key];
    Object.defineProperty(g, 'length', { value: native.length });
    Object.defineProperty(g, 'toString', { value: function toString() { return toStr.call(native); }, writable: true, configurable: true });
    obj[key] = st[field] = g;
  };
  gate(w, 'setTimeout', 'setT', st.nativeSetTimeout);
  gate(w, 'clearTimeout', 'clearT', st.nativeClearTimeout);
  gate(w, 'requestAnimationFrame', 'raf', st.nativeRAF);
  gate(w, 'cancelAnimationFrame', 'caf', st.nativeCAF);
  gate(w, 'fetch', 'fetch', st.nativeFetch);
  gate(w, 'postMessage', 'winPost', st.nativeWinPost);
  if (w.XMLHttpRequest) gate(w.XMLHttpRequest.prototype, 'send', 'send', st.nativeSend);
  if (w.MessagePort) gate(w.MessagePort.prototype, 'postMessage', 'portPost', st.nativePortPost);
  if (w.HTMLFormElement) gate(w.HTMLFormElement.prototype, 'submit', 'submit', st.nativeSubmit);
  for (const key of Object.keys(st.readers)) gate(w.Response.prototype, key, 'reader:' + key, st.nativeReaders[key]);
}

// WATCH_BODY_READERS are the Response methods that read a body: a fetch's
// promise settles when the headers arrive, and what the page does with
// the response waits for one of them.
const WATCH_BODY_READERS = ['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes'];

// wrapBodyReaders counts the reading of a counted fetch's body as part of
// its request, so the settle's idle window starts when the page has the
// data (a consent manager's configuration, a search's results), not when
// the headers came: when the body comes later than the window, the timer
// or the rendering the data sets off was missed.
function wrapBodyReaders(st, began, ended) {
  const proto = window.Response && window.Response.prototype;
  st.responses = new WeakMap(); // a counted response → its request's chain depth
  st.readers = {};
  st.nativeReaders = {};
  if (!proto) return;
  for (const key of WATCH_BODY_READERS) {
    const native = proto[key];
    if (typeof native !== 'function') continue;
    const reader = { [key]: function () {
      if (!st.responses.has(this)) return native.apply(this, arguments);
      const depth = st.responses.get(this);
      began(depth);
      const end = () => ended(depth);
      let p;
      try { p = native.apply(this, arguments); } catch (e) { end(); throw e; }
      p.then(end, end);
      return p;
    } }[key];
    st.nativeReaders[key] = native;
    st.readers[key] = st['reader:' + key] = reader;
    proto[key] = reader;
  }
}

// disarmWatch puts back the page's functions (unless the page replaced
// them meanwhile); a start-up watch also opens its gates (gateAll), so the
// references the page's scripts kept pass straight through.
function disarmWatch(st) {
  const w = window;
  if (st.boot) st.off = true;
  unwrap(st);
  if (st.observer) st.observer.disconnect();
  st.endOfTask.port1.close();
  st.nativeClearTimeout.call(w, st.expiry);
  if (watchState === st) watchState = null;
}

// unwrap puts the page's own functions back where the watch's still are.
function unwrap(st) {
  const w = window;
  if (w.setTimeout === st.setT) w.setTimeout = st.nativeSetTimeout;
  if (w.clearTimeout === st.clearT) w.clearTimeout = st.nativeClearTimeout;
  if (st.raf && w.requestAnimationFrame === st.raf) w.requestAnimationFrame = st.nativeRAF;
  if (st.caf && w.cancelAnimationFrame === st.caf) w.cancelAnimationFrame = st.nativeCAF;
  if (st.fetch && w.fetch === st.fetch) w.fetch = st.nativeFetch;
  if (st.send && w.XMLHttpRequest.prototype.send === st.send) w.XMLHttpRequest.prototype.send = st.nativeSend;
  if (st.portPost && w.MessagePort.prototype.postMessage === st.portPost) w.MessagePort.prototype.postMessage = st.nativePortPost;
  if (st.winPost && w.postMessage === st.winPost) w.postMessage = st.nativeWinPost;
  if (st.submit && w.HTMLFormElement.prototype.submit === st.submit) w.HTMLFormElement.prototype.submit = st.nativeSubmit;
  for (const key of Object.keys(st.readers)) {
    if (w.Response.prototype[key] === st['reader:' + key]) w.Response.prototype[key] = st.nativeReaders[key];
  }
}

// watchDisarm ends a watch whose action failed: nothing to settle.
export function watchDisarm() {
  if (watchState) disarmWatch(watchState);
  return true;
}

// watchLinger makes the armed watch count as the action's what the page
// schedules from now until two rendering frames into the settle: a
// scroll's consequences (its scroll events, the IntersectionObserver
// callback of a feed's sentinel that asks for the next page) run in those
// frames, after the call that scrolled returned.
export function watchLinger() {
  const st = watchState;
  if (!st || !st.nativeRAF) return false;
  st.lingering = true;
  return true;
}

// lingerFrames waits two rendering frames (bounded: hidden tabs get
// none), then stops counting what the page schedules as the action's.
function lingerFrames(st) {
  const w = window;
  return new Promise((res) => {
    const done = () => { st.lingering = false; res(); };
    st.nativeRAF.call(w, () => st.nativeRAF.call(w, () => st.nativeSetTimeout.call(w, done, 0)));
    st.nativeSetTimeout.call(w, done, 120);
  });
}

// watchSettle resolves when the armed action's work is done: a task later
// when it scheduled any (so message-channel work has run), after its counted
// timers and frame callbacks ran, its requests finished and stayed idle
// for the settle window, and — when that work changed the DOM — the DOM
// stayed quiet for an animation frame; each within a bound.
export async function watchSettle(signal) {
  try {
    return await settleWatch();
  } finally {
    // A capture waits for this (capture.js captureAfter); a page that
    // breaks dispatching only makes it wait for the caller's own signal.
    try {
      if (signal) document.dispatchEvent(new Event(signal));
    } catch (e) { /* captureAhead fires it */ }
  }
}

async function settleWatch() {
  const st = watchState;
  if (!st) return { armed: false };
  const t0 = performance.now();
  const w = window;
  const sleep = (ms) => new Promise((res) => {
    st.wake = res;
    st.nativeSetTimeout.call(w, res, ms);
  });
  const task = () => new Promise((res) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => res();
    (st.nativePortPost || ch.port2.postMessage).call(ch.port2, 0);
  });
  const frame = () => new Promise((res) => {
    let done = false;
    const fin = () => { if (!done) { done = true; res(); } };
    st.nativeRAF.call(w, fin);
    st.nativeSetTimeout.call(w, fin, 50); // hidden tabs get no frames
  });
  const syncMutations = st.mutations;
  if (st.lingering) await lingerFrames(st);
  // An action that scheduled nothing (no timer, frame, request, posted
  // message or form submission) and fired only pointer, click and focus
  // events has done all its work by now: its event handlers and their
  // microtasks ran before the input call returned, and
  // a navigation it started has been requested. Waiting a task would only
  // wait for the next rendering frame (up to 16 ms after input).
  const scheduled = st.posted > 0 || st.submitted || st.otherEvents || st.timers.size > 0 || st.frames.size > 0 || st.requested > 0;
  try {
    if (scheduled) await task();
    const timersMax = st.boot ? WATCH_BOOT_MAX : WATCH_TIMERS_MAX;
    const netMax = st.boot ? WATCH_BOOT_MAX : WATCH_NET_MAX;
    const netIdle = st.boot ? WATCH_BOOT_IDLE : WATCH_NET_IDLE;
    for (;;) {
      const now = performance.now() - t0;
      if ((st.timers.size > 0 || st.frames.size > 0) && now < timersMax) {
        await sleep(Math.min(50, timersMax - now));
        continue;
      }
      if (st.requested > 0 && now < netMax) {
        const idleFor = performance.now() - st.lastRequest;
        if (st.requests > 0 || idleFor < netIdle) {
          await sleep(Math.min(st.requests > 0 ? 50 : netIdle - idleFor, netMax - now));
          continue;
        }
      }
      break;
    }
    if (st.mutations > syncMutations) {
      const until = performance.now() + WATCH_DOM_MAX;
      for (;;) {
        const seen = st.mutations;
        await frame();
        if (st.mutations === seen || performance.now() >= until) break;
      }
    }
    return { armed: true, ms: Math.round(performance.now() - t0), mutations: st.mutations, requests: st.requested, pending: st.timers.size + st.frames.size };
  } finally {
    disarmWatch(st);
  }
}
