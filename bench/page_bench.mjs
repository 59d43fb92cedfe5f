// Page benchmark (not a test: it prints figures and never fails on speed). For each shipped
// output it prints the time from navigation to the first computed figure in headless Chromium,
// and for the page, how long one slider movement takes from its input event to an updated,
// laid-out page (median and worst of several hundred). Usage: node bench/page_bench.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(repoRoot, 'dist');
if (!existsSync(join(distDir, 'trainscope.html'))) throw new Error('dist/ is missing: run scripts/build.sh first');
const LOADS = 5;
const SLIDER_MOVES = 300;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const { server, url } = await serveDirectory(distDir, 0);
const scormFolder = mkdtempSync(join(tmpdir(), 'trainscope-bench-'));
execFileSync('unzip', ['-q', join(distDir, 'trainscope-scorm12.zip'), '-d', scormFolder]);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const format = (ms) => `${ms.toFixed(1).padStart(7)} ms`;

/** Milliseconds from navigation start to the widget's 'trainscope-first-figure' mark (median of LOADS fresh loads). */
async function timeToFirstFigure(address, scroll = false) {
  const times = [];
  for (let load = 0; load < LOADS; load += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(address);
    if (scroll) await page.evaluate(() => document.querySelector('trainscope-widget')?.scrollIntoView());
    const startTime = await page.waitForFunction(() => {
      const find = (win) => win.performance.getEntriesByName('trainscope-first-figure')[0]?.startTime;
      const own = find(window);
      if (own !== undefined) return own;
      // An iframe's mark counts from the frame's own navigation: add when the frame started.
      for (const frame of document.querySelectorAll('iframe')) {
        try {
          const inner = find(frame.contentWindow);
          if (inner !== undefined) return frame.contentWindow.performance.timeOrigin - performance.timeOrigin + inner;
        } catch { /* cross-origin */ }
      }
      return undefined;
    }, null, { timeout: 30000, polling: 20 });
    times.push(await startTime.jsonValue());
    await context.close();
  }
  return median(times);
}

console.log(`Time from navigation to the first computed figure (median of ${LOADS} fresh loads):`);
const outputs = [
  ['page over http (dist/index.html)', `${url}index.html`],
  ['offline file (dist/trainscope.html, file://)', pathToFileURL(join(distDir, 'trainscope.html')).href],
  ['element (dist/embed/example.html)', `${url}embed/example.html`, true],
  ['iframe (dist/iframe/example.html)', `${url}iframe/example.html`],
  ['SCORM SCO without an LMS (file://)', pathToFileURL(join(scormFolder, 'index.html')).href],
];
for (const [label, address, scroll] of outputs) {
  console.log(`  ${label.padEnd(48)} ${format(await timeToFirstFigure(address, scroll))}`);
}

// One slider movement: set the GPU-count slider and dispatch `input`, as a drag does; the
// widget asks the engine and redraws every figure; then force style and layout.
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
await page.goto(`${url}index.html`);
await page.waitForSelector('[data-ts-ready]');
const timings = await page.evaluate((moves) => {
  const slider = document.querySelector('[data-field="parallel.gpus"] input[type="range"]');
  const steps = Number(slider.max);
  const durations = [];
  for (let move = 0; move < moves; move += 1) {
    const start = performance.now();
    slider.value = String(move % (steps + 1));
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    void document.body.offsetHeight; // style and layout of the updated page
    durations.push(performance.now() - start);
  }
  return durations;
}, SLIDER_MOVES);
console.log(`\nOne slider movement, input event to updated layout (${SLIDER_MOVES} moves of the GPU-count slider):`);
console.log(`  median ${format(median(timings))}   worst ${format(Math.max(...timings))}   (one 60 Hz frame: 16.7 ms)`);

await browser.close();
await new Promise((resolve) => server.close(resolve));
