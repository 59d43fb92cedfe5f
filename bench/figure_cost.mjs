// What one input costs the page, and which figure it is spent on: moves one control 20 times (one
// step per frame), with Chromium's trace on, and prints the main thread's script, style and layout
// per input and any layout forced inside the page's own code (with its stack). Pass CSS that hides
// a figure to see that figure's share, e.g. `.ts-curve-figure{display:none}` (the page's CSP is
// bypassed for the injected style only). Prints figures; never fails.
//
//   node bench/figure_cost.mjs [CONTROL_SELECTOR] [INDEX] [HIDING_CSS] [SECTION_TO_SCROLL_TO]
//   node bench/figure_cost.mjs '[data-ts-section="fit"] select' 1 '[data-ts-section=time] figure{display:none}'
import { chromium } from 'playwright-core';
import { serveDirectory } from '../web/serve.mjs';

const [selector = '[data-ts-section="fit"] select', indexText = '1', hidingCss = '', section = '[data-ts-section="fit"]'] =
  process.argv.slice(2);
const index = Number(indexText);
const INPUTS = 20;

const served = await serveDirectory(new URL('../dist', import.meta.url).pathname, 0);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
await page.goto(served.url + 'index.html');
await page.waitForSelector('[data-ts-ready]');
// Sections are built as they near the screen: go to the control's section first, then centre the control.
await page.evaluate((name) => document.querySelector(name).scrollIntoView(), section);
await page.waitForFunction(([name, n]) => document.querySelectorAll(name).length > n, [selector, index]);
await page.evaluate(([name, n]) => document.querySelectorAll(name)[n].scrollIntoView({ block: 'center' }), [selector, index]);
if (hidingCss) await page.addStyleTag({ content: hidingCss });
await page.waitForTimeout(1500);

await browser.startTracing(page, {
  categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack'],
});
await page.evaluate(
  async ([name, n, inputs]) => {
    const control = document.querySelectorAll(name)[n];
    const values = control.options ? [...control.options].map((option) => option.value) : null;
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    for (let step = 0; step < inputs; step += 1) {
      await frame();
      if (values) control.value = values[step % Math.min(values.length, 6)];
      else control.click();
      control.dispatchEvent(new Event('input', { bubbles: true }));
      control.dispatchEvent(new Event('change', { bubbles: true }));
      document.documentElement.getBoundingClientRect(); // the frame's own layout, taken here
    }
  },
  [selector, index, INPUTS],
);
const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;

const totals = new Map();
const forced = new Map();
for (const event of events) {
  if (event.ph !== 'X' || !event.dur) continue;
  if (['FunctionCall', 'UpdateLayoutTree', 'Layout', 'Paint'].includes(event.name)) {
    const total = totals.get(event.name) ?? { ms: 0, dirty: 0, objects: 0 };
    total.ms += event.dur / 1000;
    total.dirty += event.args?.beginData?.dirtyObjects ?? 0;
    total.objects += event.args?.beginData?.totalObjects ?? 0;
    totals.set(event.name, total);
  }
  const stack = event.args?.beginData?.stackTrace;
  if ((event.name === 'Layout' || event.name === 'UpdateLayoutTree') && stack?.length) {
    const where = stack.slice(0, 3).map((f) => `${f.functionName || '(anonymous)'}@${f.url.split('/').pop()}:${f.lineNumber}`).join(' < ');
    const entry = forced.get(`${event.name} ${where}`) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += event.dur / 1000;
    forced.set(`${event.name} ${where}`, entry);
  }
}
console.log(`${selector} #${index}${hidingCss ? `, with ${hidingCss}` : ''}: per input (${INPUTS} inputs)`);
for (const [name, total] of totals) {
  const objects = total.objects ? `, layout objects dirty / total ${Math.round(total.dirty / INPUTS)} / ${Math.round(total.objects / INPUTS)}` : '';
  console.log(`  ${name.padEnd(17)} ${(total.ms / INPUTS).toFixed(2)} ms${objects}`);
}
console.log('Forced in script (the benchmark forces one per input itself, from its own evaluate):');
for (const [where, entry] of [...forced].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8))
  console.log(`  ${entry.count} × ${(entry.ms / entry.count).toFixed(2)} ms  ${where}`);
await browser.close();
served.server.close();
served.server.closeAllConnections?.();
