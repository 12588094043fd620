// types.d.ts — the types the in-page engine's modules share, checked with
// their JSDoc by tsc --checkJs (tsconfig.json; TestEngineTypeChecks in
// browser/engine_types_test.go). Declarations only: nothing here is
// bundled.

/** A ref's registry entry (refs.js refFor): the element and how to find it again. */
interface RefEntry {
  el: Element;
  role: string;
  name: string;
  /** CSS selector of the element, computed after the answer (null: pending). */
  selector: string | null;
  /** Selectors of the shadow hosts around the element, outermost first. */
  shadow: string[];
}

/** The snapshot and element counters a call may carry so refs stay unique across frames. */
interface Seq {
  snap: number;
  elem: number;
}

/** What the last selector lookup matched (find.js). */
interface LastFind {
  el: Element | null;
  matchCount?: number;
  index?: number;
  visible?: boolean;
  alsoMatched?: { role: string; name: string; ref: string }[];
}

/**
 * EngineState is S (state.js), the object installed as the bundle's
 * global: its entry points plus the state that lives across calls. The
 * engine's fields are set up in engine.js; the page world's serializer
 * (page.js) has none of them. Fields of one module's own bookkeeping
 * (drag, hover, feed, probe…) are typed where that module builds them.
 */
interface EngineState {
  [entry: string]: unknown;
  refs: Map<string, RefEntry>;
  byEl: WeakMap<Element, string>;
  snapSeq: number;
  elemSeq: number;
  /** Snapshot hashes by snapshot id, for "since". */
  hashes: Map<string, string>;
  frameHashes: Map<string, string>;
  /** Closed shadow roots the Go side found through CDP, by host. */
  closedRoots: WeakMap<Element, ShadowRoot>;
  shadowRoots: Set<ShadowRoot>;
  /** Elements with a click-type listener (listeners.go's scan). */
  clickMarks: WeakSet<Element>;
  /** The count of DOM changes (domversion.js) and what observes them. */
  domChanges: number;
  domObserver: MutationObserver | undefined;
  domObserved: WeakSet<Node>;
  checkedHosts: WeakSet<Element>;
  closedCandidates: Element[];
  /** Frame elements of the last walks, by slot key. */
  slots: Record<string, Element[]>;
  lastFind: LastFind | null;
  lastElement: Element | null;
  lastChecked: Element | null;
  lastHandOver: string[];
  ownRoots: Set<Node>;
  serialized: unknown[];
  handed: unknown;
  scrollPending: object | null;
  ahead: any;
  valueWatch: any;
  probe: any;
  hoverState: any;
  focusGuard: any;
  feedState: any;
  dragState: any;
  dragMarkState: any;
}

/** A memo of one engine call (dom.js cache). */
interface CallCache {
  role: Map<Element, string>;
  style: Map<Element, CSSStyleDeclaration>;
  name: Map<Element, string>;
  hidden: Map<Element, boolean>;
  /** Per container: each child's index among its tag, and the counts by tag. */
  nth: Map<Element, Map<Element, number> & { counts?: Map<string, number> }>;
  /** Per document or shadow root: whether its styles give ::before/::after content. */
  pseudo: Map<Node, boolean>;
  /** Per root: label[for] elements by id. */
  labels: Map<Node, Map<string, HTMLLabelElement[]>>;
  ariaDisabled: Map<Node, boolean>;
}

/**
 * SnapshotOpts are the options of the snapshot entry point (api.js): Go's
 * SnapshotOptions (browser/snapshot.go) as JSON, plus what the engine's
 * own callers pass (capture.js).
 */
interface SnapshotOpts {
  root?: string;
  detail?: 'full' | 'interactive' | 'summary' | '';
  viewportOnly?: boolean;
  pierceShadow?: boolean;
  noFrames?: boolean;
  maxDepth?: number;
  maxElements?: number;
  since?: string;
  internal?: boolean;
  refs?: boolean;
  resetRefs?: boolean;
  noText?: boolean;
  noHeader?: boolean;
  elements?: boolean;
  nameLimit?: number;
  textLimit?: number;
  changeLog?: string;
  refsMapAbove?: number;
  seq?: Seq;
  /** The elements an action changed: the view is cut to main and them (capture.js). */
  scope?: Element[];
  /** Where the frame elements of the walk are kept for takeSlots (default "snapshot"). */
  slotKey?: string;
  /** The DOM change count of the last click listener scan (domversion.js scanNeeded). */
  scanAt?: number;
}

/** A snapshot element as Go's SnapElement reads it. */
interface SnapElementOut {
  ref: string;
  role: string;
  name: string;
  st: Record<string, unknown>;
  value?: string;
}

/** SnapshotResult is Go's Snapshot (browser/snapshot.go) as the engine sends it. */
interface SnapshotResult {
  yaml?: string;
  snapshotId?: string;
  refs?: number;
  truncated?: boolean;
  unchanged?: boolean;
  elements?: SnapElementOut[];
  seq: Seq | null;
  closedCandidates?: number;
  frames?: number;
  url?: string;
  unloaded?: boolean[];
  hash?: string;
  /** [role, name] by ref. */
  refsMap?: Record<string, [string, string]>;
  /** What the command changed in a frame (capture.js frameCapture; Go's FrameNews). */
  news?: { text: string[]; transient: string[]; fresh: string[] };
  /** The DOM change count when the listener scan must run before the snapshot (nothing else is set). */
  rescan?: number;
}

/** What resolve (refs.js) makes of a ref. */
interface Resolved {
  el?: Element;
  status: 'ok' | 'reResolved' | 'unknown' | 'stale' | 'ambiguous';
  nameChanged?: { from: string; to: string };
  [more: string]: unknown;
}

/** A target spec of find (find.js): one of selector, text, label or focused. */
interface FindSpec {
  selector?: string;
  text?: string;
  label?: string;
  focused?: boolean;
  exact?: boolean;
  /** A selector the text is searched within. */
  within?: string;
  /** Take the first of equally good matches instead of answering ambiguous. */
  first?: boolean;
  seq?: Seq;
}

/** A candidate of an ambiguous lookup, as find answers it. */
interface Candidate {
  role: string;
  name: string;
  ref: string;
  box?: { x: number; y: number; width: number; height: number };
}

/** find's answer when several controls match equally well. */
interface Ambiguous {
  ambiguous: Candidate[];
  matchCount: number;
  rank: 'exact' | 'case-insensitive' | 'substring';
  seq: Seq;
}

/** The Prioritized Task Scheduling API (Chromium's scheduler.postTask), not yet in TypeScript's DOM types. */
interface TaskScheduler {
  postTask(callback: () => void, options?: { priority?: 'user-blocking' | 'user-visible' | 'background' }): Promise<void>;
}

interface Window {
  /** The page's task scheduler (watch.js ends an input event's task with it). */
  scheduler?: TaskScheduler;
}
