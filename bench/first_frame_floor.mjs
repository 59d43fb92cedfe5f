// The longest task before the first paint, for trainscope's page and for pages that hold next to
// nothing (not a test: it prints figures). It answers one question: how long is the first frame's
// task in this browser on this machine when a page has almost no work in it? page_bench.mjs's
// target "no long task over 50 ms before the first figure" is judged against that floor.
//
//   node bench/first_frame_floor.mjs [--loads 12] [--dist DIR] [--peer NAME=DIR]…
//
// Pages, loaded in turn (interleaved) over http, each in a fresh browser context:
//   bare paragraph     one sentence, no stylesheet, no script
//   styled paragraph   the same sentence inside the widget's classes, with dist/trainscope.css
//   trainscope         dist/index.html (its first view paints the first figure, docs/page.md)
//   peers              another estimator's built site (its index.html), e.g. gpu_poor
// Per page: first contentful paint (median), and the longest task (Long Tasks API, buffered) that
// started before it: median, p90, the longest, and in how many loads it was over 50 ms.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const options = { loads: 12, dist: join(repoRoot, 'dist'), peers: [] };
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index += 1) {
  const flag = argv[index];
  const value = () => {
    if (index + 1 >= argv.length) throw new Error(`${flag} needs a value`);
    return argv[++index];
  };
  if (flag === '--loads') options.loads = Number(value());
  else if (flag === '--dist') options.dist = resolve(value());
  else if (flag === '--peer') {
    const [name, folder] = value().split('=');
    if (!name || !folder) throw new Error('--peer takes NAME=DIR');
    options.peers.push({ name, folder: resolve(folder) });
  } else throw new Error(`unknown option ${flag}`);
}
if (!Number.isInteger(options.loads) || options.loads < 1) throw new Error('--loads must be a whole number ≥ 1');

// The floor pages: written for this run, beside a copy of the widget's stylesheet.
const SENTENCE = 'Running a 70B model takes 141 GB; training it takes 1.13 TB.';
const head = (extra) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title>${extra}</head>`;
const floorDir = mkdtempSync(join(tmpdir(), 'trainscope-floor-'));
writeFileSync(join(floorDir, 'trainscope.css'), readFileSync(join(options.dist, 'trainscope.css')));
writeFileSync(join(floorDir, 'bare.html'), `${head('')}<body><p>${SENTENCE}</p></body></html>`);
writeFileSync(join(floorDir, 'styled.html'), `${head('<link rel="stylesheet" href="trainscope.css">')}<body><main class="ts-page"><div class="ts-root"><p class="ts-prose">${SENTENCE}</p></div></main></body></html>`);

const servers = [];
const serve = async (folder) => {
  const served = await serveDirectory(folder, 0);
  servers.push(served.server);
  return served.url;
};
const floorUrl = await serve(floorDir);
const pages = [
  { name: 'bare paragraph', url: `${floorUrl}bare.html` },
  { name: 'styled paragraph', url: `${floorUrl}styled.html` },
  { name: 'trainscope (dist/index.html)', url: `${await serve(options.dist)}index.html` },
];
for (const peer of options.peers) pages.push({ name: peer.name, url: `${await serve(peer.folder)}index.html` });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});

/** Runs before the page's own scripts: every long task from the document's start. */
function watchLongTasks() {
  const tasks = [];
  Object.defineProperty(window, '__longTasks', { value: tasks });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

async function load(page) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  await context.addInitScript(watchLongTasks);
  const tab = await context.newPage();
  await tab.goto(page.url);
  await tab.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 30000 });
  // Long tasks are reported after they end: give the one holding the first paint time to be listed.
  await tab.waitForTimeout(1000);
  const result = await tab.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0].startTime;
    const before = window.__longTasks.filter((task) => task.start < paint);
    return { paint, longest: before.reduce((longest, task) => Math.max(longest, task.duration), 0) };
  });
  await context.close();
  return result;
}

const results = new Map(pages.map((page) => [page.name, []]));
for (let round = 0; round < options.loads; round += 1) {
  for (const page of pages) results.get(page.name).push(await load(page));
}
await browser.close();
for (const server of servers) server.close();
rmSync(floorDir, { recursive: true, force: true });

const quantile = (values, share) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};
const ms = (value) => `${value.toFixed(0)} ms`;
console.log(`Longest task before the first contentful paint, ${options.loads} loads per page, interleaved (a task under 50 ms is not reported, so 0 means none over 50):`);
console.log(`  ${'page'.padEnd(30)} ${'first paint'.padStart(12)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'longest'.padStart(8)}  loads with a task over 50 ms`);
for (const [name, loads] of results) {
  const longest = loads.map((entry) => entry.longest);
  console.log(`  ${name.padEnd(30)} ${ms(quantile(loads.map((entry) => entry.paint), 0.5)).padStart(12)} ${ms(quantile(longest, 0.5)).padStart(8)} ${ms(quantile(longest, 0.9)).padStart(8)} ${ms(Math.max(...longest)).padStart(8)}  ${longest.filter((value) => value > 50).length} of ${loads.length}`);
}
