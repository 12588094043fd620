// editors.js — code and rich-text editors. Their document lives in their
// own model: a code editor's textarea (Monaco, Ace, CodeMirror 5) holds at
// most a window of it, and a rich-text editor (CodeMirror 6, Quill,
// ProseMirror) re-renders its contenteditable from its model. Setting the
// textarea's value or the element's text corrupts the model (or is
// undone), and reading them back says nothing about it. So a fill selects
// with the editor's own keys, inserts the text as typed, and is verified on
// the lines the editor renders. Module of the in-page engine.

// EDITORS describes the editors recognised: the element an input surface
// sits in (root), the input surface itself (surface: a hidden textarea,
// or the contenteditable that is root; an editor's other fields, such as
// Monaco's find widget, are plain fields) and the elements of its rendered
// lines (lines, relative to root).
const EDITORS = [
  { name: 'Monaco', root: '.monaco-editor', surface: 'textarea.inputarea', lines: '.view-lines > .view-line' },
  { name: 'Ace', root: '.ace_editor', surface: 'textarea.ace_text-input', lines: '.ace_text-layer > .ace_line, .ace_text-layer > .ace_line_group' },
  // CodeMirror 5's textarea sits in an unnamed div, a child of its root.
  { name: 'CodeMirror 5', root: '.CodeMirror', surface: '.CodeMirror > div > textarea', lines: '.CodeMirror-code pre.CodeMirror-line' },
  { name: 'CodeMirror 6', root: '.cm-content', lines: ':scope > .cm-line' },
  { name: 'Quill', root: '.ql-editor', lines: ':scope > *' },
  { name: 'ProseMirror', root: '.ProseMirror', lines: ':scope > *' },
];

// editorOf returns the editor el is the input surface of, or null: a
// textarea inside a code editor, or an editor's contenteditable root.
export function editorOf(el) {
  if (!el || el.nodeType !== 1) return null;
  const isTextarea = el.tagName === 'TEXTAREA';
  if (!isTextarea && !el.isContentEditable) return null;
  for (const e of EDITORS) {
    if (!!e.surface !== isTextarea) continue;
    const root = isTextarea ? (el.matches(e.surface) && el.closest(e.root)) : (el.matches(e.root) ? el : null);
    if (root) return { name: e.name, root, lines: e.lines };
  }
  return null;
}

// editorText is the text the editor renders, its lines top to bottom
// (virtualised editors render only the lines in view).
export function editorText(ed) {
  const lines = [...ed.root.querySelectorAll(ed.lines)]
    .map((l) => ({ top: l.getBoundingClientRect().top, text: (l.textContent || '').replace(/\u00a0/g, ' ').replace(/[\u200b\ufeff]/g, '') }))
    .sort((a, b) => a.top - b.top);
  return lines.map((l) => l.text).join('\n');
}

// editorShows waits (a few animation frames, as editors render on the
// next one) until the editor renders value — all of it, or, when the
// document is taller than the editor, the lines in view as the end of it
// (the caret is at its end). With append, the rendered text must end with
// value. Returns what it renders.
export async function editorShows(el, value, append) {
  const ed = editorOf(el);
  if (!ed) return { shown: false, text: '', gone: true };
  const until = performance.now() + 1500;
  let text = editorText(ed);
  for (let i = 0; !renders(text, value, append) && performance.now() < until; i++) {
    await new Promise((r) => {
      requestAnimationFrame(() => r());
      setTimeout(r, 50);
    });
    text = editorText(ed);
  }
  return { shown: renders(text, value, append), text };
}

// editorPaste pastes value into the focused editor as the clipboard's
// text, which the editor inserts as it is (typed text is auto-indented and
// gets closing brackets); its selection, made by the select-all key, is
// replaced. Says whether the editor took the paste (it handles the event
// and cancels the browser's own paste); when not (CodeMirror 5 reads what
// the browser pasted into its textarea), the text is typed instead.
export function editorPaste(el, value) {
  const data = new DataTransfer();
  data.setData('text/plain', value);
  const ev = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
  el.dispatchEvent(ev);
  return ev.defaultPrevented;
}

// renders says whether an editor rendering text shows value: the same
// lines (trailing spaces and newlines aside; a tab may render as spaces).
function renders(text, value, append) {
  const norm = (s) => s.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/\n+$/, '');
  let t = norm(text), v = norm(value);
  if (v.includes('\t')) {
    t = t.replace(/[ \t]+/g, ' ');
    v = v.replace(/[ \t]+/g, ' ');
  }
  if (append) return t.endsWith(v);
  if (t === v) return true;
  // A window of a document taller than the editor: the lines in view are
  // the last lines of the value, and there are fewer of them.
  const tl = t.split('\n'), vl = v.split('\n');
  return tl.length < vl.length && vl.slice(vl.length - tl.length).join('\n') === t;
}
