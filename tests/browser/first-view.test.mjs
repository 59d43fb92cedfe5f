// The page's first view (web/prerender.mjs, docs/page.md): dist/index.html and the offline file open
// with the default scenario's opening sections, drawn at build time, and the widget replaces them
// once built. These tests hold the first view to the widget's own words and figures, check that a
// link to anything else never shows it, and that it leaves nothing behind.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { distDir, fileUrl, startHarness, withOpenPage } from './harness.mjs';

let harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

const offlineUrl = pathToFileURL(join(distDir, 'trainscope.html')).href;

/** The parts of the opening sections a learner reads, by region: text and every figure's value. */
function readOpening(rootSelector) {
  const root = document.querySelector(rootSelector);
  if (!root) return null;
  // What is drawn (innerText): the first view leaves out what the widget keeps hidden.
  const text = (node) => (node?.innerText ?? '').replace(/\s+/g, ' ').trim();
  const regions = {};
  // The lesson's first part: its title, its sentence and the run-vs-train figures (the picker follows them).
  const first = '[data-ts-section="run-vs-train"]';
  for (const selector of ['.ts-header', `${first} .ts-section-title`, `${first} .ts-prose`, `${first} .ts-headline`]) {
    regions[selector] = text(root.querySelector(selector));
  }
  const figures = [...root.querySelectorAll(`${first} :is(.ts-prose, .ts-headline) [data-figure]`)]
    .map((node) => `${node.getAttribute('data-figure')}=${node.getAttribute('data-value') ?? ''}:${text(node)}`);
  // Where each figure sits: the widget must take the first view's place without a shift.
  const places = [...root.querySelectorAll(`${first} :is(.ts-prose, .ts-headline) [data-figure]`)].map((node) => {
    const box = node.getBoundingClientRect();
    return `${node.getAttribute('data-figure')}@${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}×${Math.round(box.height)}`;
  });
  return { regions, figures, places };
}

/** Opens `address` with the page's script refused: what the HTML and the head's guard paint alone. */
async function htmlAlone(address) {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.route(/trainscope\.js$/, (route) => route.abort());
    await page.goto(address);
    return await page.evaluate(() => {
      const view = document.querySelector('[data-ts-first-view]');
      return {
        present: view !== null,
        displayed: view !== null && getComputedStyle(view).display !== 'none',
        inert: view?.inert ?? null,
        ids: [...(view?.querySelectorAll('[id]') ?? [])].map((node) => node.id),
        references: view?.querySelectorAll('[for], [name], [aria-describedby], [aria-labelledby], [aria-controls], [aria-live], [role]').length ?? null,
      };
    });
  } finally {
    await context.close();
  }
}

for (const [name, address, width] of [['dist/index.html', null, 1280], ['dist/index.html', null, 320], ['the offline file', offlineUrl, 1280]]) {
  test(`${name} at ${width} px: the first view says what the widget then says, where it says it, and gives way to it`, async () => {
    const url = address ?? harness.url;
    const viewport = { width, height: 900 };
    // What the HTML holds: read with no script at all.
    const context = await harness.browser.newContext({ javaScriptEnabled: false, viewport });
    let drawn;
    try {
      const page = await context.newPage();
      await page.goto(url);
      drawn = await page.evaluate(readOpening, '[data-ts-first-view]');
    } finally {
      await context.close();
    }
    assert.ok(drawn, `${name} has a first view`);
    assert.ok(drawn.figures.length >= 4, `the first view has the headline figures (${drawn.figures.join(', ')})`);
    await withOpenPage(harness.browser, url, { viewport }, async (page) => {
      const live = await page.evaluate(readOpening, '.ts-root[data-ts-ready]');
      assert.deepEqual(drawn, live, 'the first view shows the widget’s words, figures and settings for the default scenario, in the same places');
      const left = await page.evaluate(() => ({ views: document.querySelectorAll('[data-ts-first-view]').length, roots: document.querySelectorAll('.ts-root').length }));
      assert.deepEqual(left, { views: 0, roots: 1 }, 'once the widget is built, the first view is gone and one widget remains');
    });
  });
}

test('the first view shows for the plain address, inert and without ids, and never for a link to something else', async () => {
  const plain = await htmlAlone(`${harness.url}index.html`);
  assert.equal(plain.present, true);
  assert.equal(plain.displayed, true, 'the plain address paints the first view before any script of the page');
  assert.equal(plain.inert, true, 'the first view takes no focus and no clicks');
  assert.ok(plain.ids.every((id) => id.endsWith('-first-view')), `only the drawings' renamed pattern ids stay (${plain.ids.join(', ')})`);
  assert.equal(plain.references, 0, 'no labels, names, live regions or roles that could clash with the widget’s');
  // A link opens a scenario, a playhead, an anchor or a language: the default's figures must not flash first.
  for (const suffix of ['index.html#s=%7B%22model%22%3A%7B%22preset%22%3A%22gpt2-124m%22%7D%7D', 'index.html#step=3', 'index.html#quiz', 'index.html?lang=de']) {
    const linked = await htmlAlone(`${harness.url}${suffix}`);
    assert.equal(linked.present, true, `${suffix}: the HTML still carries the first view`);
    assert.equal(linked.displayed, false, `${suffix}: the head's guard hides the first view (its inline script allowed by the page's CSP)`);
  }
});

test('a link to another scenario opens on that scenario, with no first view left behind', async () => {
  const hash = '#s=%7B%22model%22%3A%7B%22preset%22%3A%22gpt2-124m%22%7D%7D';
  await withOpenPage(harness.browser, `${harness.url}${hash}`, {}, async (page) => {
    const state = await page.evaluate(() => ({
      views: document.querySelectorAll('[data-ts-first-view]').length,
      preset: document.querySelector('[data-field="model.preset"] select').value,
      refused: document.documentElement.hasAttribute('data-ts-first-view-refused'),
    }));
    assert.deepEqual(state, { views: 0, preset: 'gpt2-124m', refused: true });
  });
});

test('the file:// page opens with its first view and no console error (the guard passes the CSP)', async () => {
  await withOpenPage(harness.browser, fileUrl, {}, async (page) => {
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ts-first-view-refused')), false);
  });
});

/**
 * Runs in the page before its scripts: when the first view leaves the DOM, notes whether the
 * widget was ready and shown at that moment (window.__firstViewGone).
 */
function noteFirstViewRemoval() {
  window.__firstViewGone = null;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.removedNodes) {
        if (node.nodeType === 1 && node.hasAttribute('data-ts-first-view') && window.__firstViewGone === null) {
          const live = document.querySelector('.ts-root:not([data-ts-first-view])');
          window.__firstViewGone = { widgetReady: live?.hasAttribute('data-ts-ready') ?? false, widgetShown: live ? !live.hidden : false };
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

test('where a host’s own policy refuses the guard, a link still drops the first view as soon as the script runs', async () => {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    // The page as a static site with its own header policy might serve it: the guard's hash left out.
    await page.route(/index\.html$/, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/ 'sha256-[^']+'(?=; style-src)/, '');
      await route.fulfill({ response, body });
    });
    await page.addInitScript(noteFirstViewRemoval);
    const violations = [];
    page.on('console', (message) => { if (message.type() === 'error') violations.push(message.text()); });
    await page.goto(`${harness.url}index.html#s=%7B%22model%22%3A%7B%22preset%22%3A%22llama2-7b%22%7D%7D`);
    await page.waitForSelector('[data-ts-ready]');
    assert.ok(violations.some((text) => /Content Security Policy/i.test(text)), 'the guard was refused, as the host’s policy says');
    const state = await page.evaluate(() => ({
      gone: window.__firstViewGone,
      preset: document.querySelector('[data-field="model.preset"] select').value,
      views: document.querySelectorAll('[data-ts-first-view]').length,
    }));
    // Gone when the script started: the widget's loading line took its place, long before it was ready.
    assert.deepEqual(state, { gone: { widgetReady: false, widgetShown: true }, preset: 'llama2-7b', views: 0 },
      'the first view went when the script started, long before the widget was ready');
  } finally {
    await context.close();
  }
});

test('the plain address keeps the first view until the widget takes its place, in the same task', async () => {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(noteFirstViewRemoval);
    await page.goto(`${harness.url}index.html`);
    await page.waitForSelector('[data-ts-ready]');
    assert.deepEqual(await page.evaluate(() => window.__firstViewGone), { widgetReady: true, widgetShown: true });
  } finally {
    await context.close();
  }
});
