// Measure every out/*.txt: bytes, o200k_base tokens (gpt-tokenizer), bytes/4, lines, refs.
// Usage: node measure.mjs  (writes results.csv and results.md, prints the table)
import fs from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
const pages = JSON.parse(fs.readFileSync('pages.json')).map(p => p.name);
const variants = [  // [file prefix, label]
  ['cdp-default', 'cdp-skill default (auto-scoped to main)'],
  ['cdp-body', 'cdp-skill full page (root body)'],
  ['cdp-viewport', 'cdp-skill viewportOnly (auto-scoped)'],
  ['cdp-viewport-body', 'cdp-skill viewportOnly root body'],
  ['cdp-interactive-body', 'cdp-skill detail=interactive root body (extra)'],
  ['pw-body', "Playwright locator('body').ariaSnapshot()"],
  ['pw-ai', "Playwright page.ariaSnapshot({mode:'ai'})"],
  ['ab-default', 'agent-browser snapshot'],
  ['ab-interactive', 'agent-browser snapshot -i'],
  ['ab-compact', 'agent-browser snapshot -c (extra)'],
];
const rows = [];
for (const [pre, label] of variants) for (const page of pages) {
  const f = `out/${pre}-${page}.txt`;
  if (!fs.existsSync(f)) continue;
  const buf = fs.readFileSync(f), s = buf.toString('utf8');
  rows.push({ variant: pre, label, page, bytes: buf.length, tokens: countTokens(s),
    bytes4: Math.round(buf.length / 4), lines: s.split('\n').filter(l => l.trim()).length,
    refs: (s.match(/\bref=/g) || []).length });
}
fs.writeFileSync('results.csv', 'variant,page,bytes,tokens_o200k,bytes_div4,lines,refs\n' +
  rows.map(r => [r.variant, r.page, r.bytes, r.tokens, r.bytes4, r.lines, r.refs].join(',')).join('\n') + '\n');
// wide markdown table: one row per variant, per page "bytes / tokens"
let md = '| variant | ' + pages.join(' | ') + ' |\n|---|' + pages.map(() => '---:').join('|') + '|\n';
for (const [pre, label] of variants) {
  const cells = pages.map(p => { const r = rows.find(r => r.variant === pre && r.page === p);
    return r ? `${r.bytes} B / ${r.tokens} tok` : '-'; });
  md += `| ${label} | ${cells.join(' | ')} |\n`;
}
fs.writeFileSync('results.md', md);
console.log(md);
