// First figure painted, two or more builds in one run (not a test: it prints figures). On this
// machine the first figure moves by ±100 ms from one run to the next, so a change is judged by
// loading the builds in turn, interleaved, in the same browser: see bench/README.md.
//
//   node bench/first_ab.mjs [--loads 12] [--output page|offline|element|two-elements] DIST_A DIST_B …
//
// Each DIST is a built dist/ folder (e.g. a worktree's, built with TRAINSCOPE_DIST_DIR). The figure is
// taken as page_bench.mjs takes it: navigation start → the frame painted after the first element
// with a data-value attribute (document or shadow root) is in the DOM. Prints the median and every load,
// and the same for the widget ready and painted (the first view, docs/page.md, paints before it).
import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';
import { COURSE_PAGES } from './course-pages.mjs';

const options = { loads: 12, output: 'page', dists: [] };
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index += 1) {
  const flag = argv[index];
  if (flag === '--loads') options.loads = Number(argv[++index]);
  else if (flag === '--output') options.output = argv[++index];
  else if (flag.startsWith('--')) throw new Error(`unknown option ${flag}`);
  else options.dists.push(flag);
}
const OUTPUTS = { page: 'index.html', offline: 'trainscope.html', element: 'bench/one-element.html', 'two-elements': 'bench/two-elements.html' };
if (!(options.output in OUTPUTS)) throw new Error(`--output must be one of ${Object.keys(OUTPUTS).join(', ')}`);
if (options.dists.length < 1 || !Number.isInteger(options.loads) || options.loads < 1) {
  throw new Error('usage: node bench/first_ab.mjs [--loads N] [--output page|offline|element|two-elements] DIST …');
}

/** Runs in the page before its scripts: notes when a computed figure is in the DOM, then the frame after it. */
function watchFirstFigure() {
  const timing = { painted: null, ready: null };
  Object.defineProperty(window, '__firstFigure', { value: timing });
  const afterNextFrame = (record) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => record(performance.now());
    channel.port2.postMessage(null);
  });
  // The widget marks the moment it is built and on screen (app.ts, 'trainscope-first-figure'):
  // the frame after it is the widget painted and answering input. With a first view (docs/page.md)
  // that comes after the first figure; without, it is the first figure.
  const mark = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => {
    if (name === 'trainscope-first-figure' && timing.ready === null) afterNextFrame((now) => { timing.ready ??= now; });
    return mark(name, ...rest);
  };
  const roots = [document];
  let seen = false;
  const check = () => {
    if (seen || !roots.some((root) => root.querySelector('[data-value]'))) return;
    seen = true;
    afterNextFrame((now) => { timing.painted = now; });
  };
  const observer = new MutationObserver(check);
  const watch = (root) => observer.observe(root, { childList: true, subtree: true, attributes: true });
  watch(document);
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function attachShadowWatched(init) {
    const root = attachShadow.call(this, init);
    roots.push(root);
    watch(root);
    return root;
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const servers = await Promise.all(options.dists.map((dist) => serveDirectory(dist, 0, { extra: COURSE_PAGES })));
const painted = options.dists.map(() => []);
const ready = options.dists.map(() => []);
for (let load = 0; load < options.loads; load += 1) {
  for (const [index, { url }] of servers.entries()) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(watchFirstFigure);
    await page.goto(url + OUTPUTS[options.output]);
    await page.waitForFunction(() => window.__firstFigure.painted !== null && window.__firstFigure.ready !== null, null, { timeout: 30000 });
    const timing = await page.evaluate(() => ({ ...window.__firstFigure }));
    painted[index].push(timing.painted);
    ready[index].push(timing.ready);
    await context.close();
  }
}
await browser.close();
for (const { server } of servers) server.close();

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`first figure painted, ${options.output}, ${options.loads} interleaved loads per build (ms)`);
options.dists.forEach((dist, index) => {
  console.log(`  ${dist}: median ${median(painted[index]).toFixed(0)}   loads ${painted[index].map((ms) => ms.toFixed(0)).join(' ')}`);
});
console.log('the widget ready and painted (the frame after its trainscope-first-figure mark), same loads (ms)');
options.dists.forEach((dist, index) => {
  console.log(`  ${dist}: median ${median(ready[index]).toFixed(0)}   loads ${ready[index].map((ms) => ms.toFixed(0)).join(' ')}`);
});
