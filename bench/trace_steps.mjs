// Main-thread CPU time per input step, from a Chromium trace: each task's thread time (`tdur`),
// which leaves out the time the thread waited for a core. On a shared or busy machine the wall
// clock that page_bench.mjs reports moves with the machine's load; thread time moves far less,
// so this is the figure to compare two builds with when the machine is not quiet.
//
//   node bench/trace_steps.mjs [--input CSS] [--steps N] [--rounds N] [DIST …]
//
// Every DIST (default: dist/) is loaded in turn, --rounds times, interleaved; in each, the page is
// scrolled through (so lazily built sections exist), then the input is moved --steps times, one
// step per frame, as page_bench.mjs moves it (a select takes its next option, a range its next
// stop), with a layout read after each. Prints the median over rounds of: CPU ms per step, of
// which layout, style, script and paint, and layouts per step.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const options = { input: 'select.ts-select', steps: 30, rounds: 3, dists: [] };
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index += 1) {
  const flag = argv[index];
  if (flag === '--input') options.input = argv[++index];
  else if (flag === '--steps') options.steps = Number(argv[++index]);
  else if (flag === '--rounds') options.rounds = Number(argv[++index]);
  else if (flag.startsWith('--')) throw new Error(`unknown option ${flag}`);
  else options.dists.push(resolve(flag));
}
if (options.dists.length === 0) options.dists.push(join(repoRoot, 'dist'));

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const CATEGORIES = 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing';

const servers = await Promise.all(options.dists.map((dist) => serveDirectory(dist, 0)));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const results = options.dists.map(() => []);

for (let round = 0; round < options.rounds; round += 1) {
  for (const [index, { url }] of servers.entries()) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(new URL('index.html', url.endsWith('/') ? url : `${url}/`).href);
    await page.waitForSelector('[data-ts-ready]', { state: 'attached' });
    for (let scroll = 0; scroll < 15; scroll += 1) {
      await page.mouse.wheel(0, 900);
      await page.waitForTimeout(80);
    }
    await page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView({ block: 'center' }), options.input);
    await page.waitForTimeout(400);

    const cdp = await page.context().newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (message) => events.push(...message.value));
    const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    const moved = await page.evaluate(async ([selector, steps]) => {
      const input = document.querySelector(selector);
      if (!input) return false;
      const frame = () => new Promise((done) => requestAnimationFrame(done));
      performance.mark('trace-steps-start');
      for (let step = 0; step < steps; step += 1) {
        await frame();
        if (input instanceof HTMLSelectElement) {
          input.selectedIndex = (input.selectedIndex + 1) % input.options.length;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          input.dispatchEvent(new Event('change', { bubbles: true }));
        } else {
          const max = Number(input.max);
          input.value = String((Number(input.value) + Math.max(1, Math.round(max / 40))) % (max + 1));
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
        void document.body.offsetHeight;
      }
      await frame();
      await frame();
      performance.mark('trace-steps-end');
      return true;
    }, [options.input, options.steps]);
    await cdp.send('Tracing.end');
    await complete;
    if (!moved) throw new Error(`no element matches --input ${options.input}`);

    const mainThreads = new Set(events.filter((event) => event.name === 'thread_name' && event.args.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`));
    const start = events.find((event) => event.name === 'trace-steps-start').ts;
    const end = events.find((event) => event.name === 'trace-steps-end').ts;
    const inSteps = (event) => mainThreads.has(`${event.pid}:${event.tid}`) && event.ts >= start && event.ts <= end;
    const threadMs = (name) => events.filter((event) => inSteps(event) && event.name === name)
      .reduce((sum, event) => sum + (event.tdur ?? 0), 0) / 1000 / options.steps;
    results[index].push({
      cpu: threadMs('RunTask'),
      layout: threadMs('Layout'),
      style: threadMs('UpdateLayoutTree'),
      script: threadMs('FunctionCall') + threadMs('EventDispatch'),
      paint: threadMs('Paint'),
      layouts: events.filter((event) => inSteps(event) && event.name === 'Layout').length / options.steps,
    });
    await page.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`main-thread CPU per step of ${options.input}, median of ${options.rounds} rounds × ${options.steps} steps (ms; tracing adds its own overhead)`);
for (const [index, dist] of options.dists.entries()) {
  const figure = (key) => median(results[index].map((result) => result[key])).toFixed(2);
  console.log(`  ${dist}: cpu ${figure('cpu')}  layout ${figure('layout')}  style ${figure('style')}  script ${figure('script')}  paint ${figure('paint')}  layouts/step ${figure('layouts')}`);
}
await browser.close();
for (const { server } of servers) server.close();
