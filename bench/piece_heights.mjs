// Prints how tall each piece an author can embed is (docs/embedding.md, "Pieces"): one
// <trainscope-widget sections="…"> per piece on a course page, at a phone's 360 px and a laptop's
// 1280 px, measured once the widget is built and every lazy part of it has been scrolled past.
// Usage: node bench/piece_heights.mjs   (after `node web/build.mjs`; Debian's Chromium)
import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';
import { distDir } from '../tests/browser/harness.mjs';

const PIECES = [
  'run-vs-train', 'training-extras', 'sharding-checkpointing', 'compute-time', 'lesson', 'quiz',
  'layouts', 'step', 'activations', 'time-over-gpus', 'fit', 'precision', 'your-model', '',
];
const WIDTHS = [360, 1280];
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

const page = (sections) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Piece</title>
<style>body { margin: 0; padding: 0 12px; }</style>
<script src="../embed/trainscope-widget.js" defer></script></head><body>
<trainscope-widget${sections ? ` sections="${sections}"` : ''}></trainscope-widget></body></html>`;

const extra = Object.fromEntries(PIECES.map((piece) => [`/host/${piece || 'whole'}.html`, { type: 'text/html; charset=utf-8', body: page(piece) }]));
const served = await serveDirectory(distDir, 0, { extra });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

/** The widget's height once built, after scrolling through it so every lazy part is drawn. */
async function height(piece, width) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const tab = await context.newPage();
  await tab.goto(`${served.url}host/${piece || 'whole'}.html`);
  await tab.waitForFunction(() => document.querySelector('trainscope-widget')?.shadowRoot?.querySelector('[data-ts-ready]'), null, { timeout: 30000 });
  let last = -1;
  for (let round = 0; round < 40; round += 1) {
    const now = await tab.evaluate(() => document.querySelector('trainscope-widget').getBoundingClientRect().height);
    if (now === last) break;
    last = now;
    await tab.mouse.wheel(0, 700);
    await tab.waitForTimeout(250);
  }
  await context.close();
  return Math.round(last);
}

console.log(`| sections | ${WIDTHS.map((width) => `height at ${width} px`).join(' | ')} |`);
console.log(`|---|${WIDTHS.map(() => '---|').join('')}`);
for (const piece of PIECES) {
  const heights = [];
  for (const width of WIDTHS) heights.push(await height(piece, width));
  console.log(`| ${piece ? `\`${piece}\`` : '(none: the whole widget, deeper parts closed)'} | ${heights.map((value) => `${value.toLocaleString('en')} px`).join(' | ')} |`);
}
await browser.close();
served.server.close();
served.server.closeAllConnections();
