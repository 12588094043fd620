// Playwright snapshots. Usage: node pw.mjs  (writes out/pw-*.txt)
import { chromium } from 'playwright-core';
import fs from 'node:fs';
const pages = JSON.parse(fs.readFileSync(new URL('./pages.json', import.meta.url)));
const W = +(process.env.VW || 1280), H = +(process.env.VH || 713);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'], headless: true });
for (const p of pages) {
  // fresh context per page so AI-mode refs start at e1 on every page
  const context = await browser.newContext({ viewport: { width: W, height: H } });
  const page = await context.newPage();
  await page.goto(p.url, { waitUntil: 'load' });
  const vp = await page.evaluate(() => [innerWidth, innerHeight]);
  const body = await page.locator('body').ariaSnapshot();
  const ai = await page.ariaSnapshot({ mode: 'ai' });            // page-level AI-mode snapshot (refs)
  const bodyAi = await page.locator('body').ariaSnapshot({ mode: 'ai' }); // checked: identical to page-level
  fs.writeFileSync(`out/pw-body-${p.name}.txt`, body);
  fs.writeFileSync(`out/pw-ai-${p.name}.txt`, ai);
  console.log(p.name, 'viewport', vp.join('x'), 'body', body.length, 'ai', ai.length, 'bodyAi==ai', bodyAi === ai);
  await context.close();
}
await browser.close();
