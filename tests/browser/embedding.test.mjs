// Issue 11's embedding problems (docs/embedding.md), in Debian's Chromium: an embedded widget
// shows only the sections it asks for, numbered from 1, with its own header only when asked;
// every bad attribute gives one notice naming it and one console warning, and a good value
// clears it; the example pages load clean under the documented CSP; the SCORM manifest names
// only files its zip carries.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { distDir, recordConsole, repoRoot } from './harness.mjs';
import { packageManifest } from './packages.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const docs = readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8');
/** The policy docs/embedding.md promises the element runs under, read from the docs themselves. */
const DOCUMENTED_CSP = /runs under `(default-src[^`]+)`/.exec(docs)?.[1];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

/** A course page around `body`: its own h1, then the widgets. */
function coursePage(body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title>
<script src="../embed/trainscope-widget.js" defer></script></head><body><h1>Week 3</h1>${body}</body></html>`;
}

/**
 * Serves dist/ and `pages` ({ name: body }) under /host/ with the documented CSP, opens `name`
 * and records console errors, console warnings and page errors until the test ends.
 */
async function openHost(t, pages, name, viewport = { width: 1100, height: 900 }) {
  const extra = Object.fromEntries(Object.entries(pages).map(([page, body]) => [`/host/${page}.html`, { type: 'text/html; charset=utf-8', body: coursePage(body) }]));
  const served = await serveDirectory(distDir, 0, { headers: { 'content-security-policy': DOCUMENTED_CSP }, extra });
  const context = await browser.newContext({ viewport });
  t.after(async () => {
    await context.close();
    await new Promise((resolve) => served.server.close(resolve));
  });
  const page = await context.newPage();
  const { errors, warnings } = recordConsole(page);
  await page.goto(`${served.url}host/${name}.html`);
  return { page, errors, warnings, url: served.url };
}

/** Polls until `read()` returns `expected`, then asserts it (the last value on timeout). */
async function eventually(read, expected, timeout = 10000) {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (JSON.stringify(value) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  assert.deepEqual(value, expected);
}

/** Waits for the widget `selector` to be mounted and not in the middle of a rebuild. */
async function settled(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await page.waitForFunction((css) => {
    const element = document.querySelector(css);
    return element.widget !== null && element.shadowRoot.querySelector('[data-ts-ready]') !== null;
  }, selector, { timeout: 20000 });
}

/** Every section title the widget has built, in order (waits until `count` exist: they build lazily). */
async function sectionTitles(page, selector, count) {
  const titles = page.locator(`${selector} .ts-section-title`);
  await eventually(async () => {
    await page.mouse.wheel(0, 600);
    return (await titles.count()) >= count;
  }, true, 20000);
  return titles.evaluateAll((elements) => elements.map((element) => `${element.localName} ${element.textContent}`));
}

/** What a widget shows besides its sections: the header, the model picker, text pointing at inputs. */
function chrome(page, selector) {
  return page.locator(selector).evaluate((element) => {
    const root = element.shadowRoot;
    return {
      titles: root.querySelectorAll('.ts-title').length,
      ledes: root.querySelectorAll('.ts-lede').length,
      pickers: root.querySelectorAll('.ts-model-picker').length,
      pointsAtInputs: /inputs below/i.test(root.textContent),
    };
  });
}

test('two widgets on one page: no repeated title, each numbers its own lesson parts from 1', async (t) => {
  const { page, errors, warnings } = await openHost(t, {
    two: '<trainscope-widget id="memory" sections="memory"></trainscope-widget><h2>How long?</h2>'
      + '<trainscope-widget id="time" preset="llama3-405b" sections="time"></trainscope-widget>',
  }, 'two');
  await settled(page, '#memory');
  await settled(page, '#time');
  assert.deepEqual(await chrome(page, '#memory'), { titles: 0, ledes: 0, pickers: 1, pointsAtInputs: false }, 'no header by default in an embed');
  assert.deepEqual(await chrome(page, '#time'), { titles: 0, ledes: 0, pickers: 1, pointsAtInputs: false });
  // Without its own title, a widget's sections sit directly under the course page's h1.
  // memory: the lesson's first three parts, then its deeper tools behind their disclosures.
  assert.deepEqual(await sectionTitles(page, '#memory', 4), [
    'h2 1. To run it, to train it',
    'h2 2. What each weight brings to training',
    'h2 3. Sharding and checkpointing make it fit',
    'h2 Go deeper',
  ]);
  assert.deepEqual(await sectionTitles(page, '#time', 2), ['h2 1. Time: thousands of GPUs for months', 'h2 Go deeper']);
  // The widget's stylesheet is parsed once for the page: both shadow roots adopt the same sheet,
  // once each (beside each element's own few rules for its placeholder).
  const sheets = await page.evaluate(() => {
    const [first, second] = ['#memory', '#time'].map((id) => document.querySelector(id).shadowRoot.adoptedStyleSheets);
    const shared = first.filter((sheet) => second.includes(sheet));
    return { shared: shared.length, rules: shared[0]?.cssRules.length ?? 0, first: first.length, second: second.length };
  });
  assert.equal(sheets.shared, 1, 'both widgets adopt one and the same constructed sheet');
  assert.ok(sheets.rules > 100, `the shared sheet is the widget's stylesheet (${sheets.rules} rules)`);
  assert.equal(sheets.first, sheets.second, 'each root adopts the same number of sheets (none twice)');
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings, []);
});

test('a sections="time" widget starts with its model picker and its chart: no title or introduction first', async (t) => {
  const { page, errors } = await openHost(t, { time: '<trainscope-widget id="time" sections="time"></trainscope-widget>' }, 'time');
  await settled(page, '#time');
  const order = await page.locator('#time').evaluate((element) => [...element.shadowRoot.querySelector('.ts-root').children]
    .filter((child) => !child.hidden && !child.classList.contains('ts-visually-hidden'))
    .map((child) => (child.classList.contains('ts-model') ? 'model picker' : child.querySelector('.ts-section-title')?.textContent ?? child.localName)));
  assert.deepEqual(order.slice(0, 2), ['model picker', '1. Time: thousands of GPUs for months'], 'the picker, then the time part, first');
  assert.equal(await page.locator('#time [data-figure="inference-total"]').count(), 0, 'no memory figures');
  // The units note stays with the figures, once, below them.
  assert.equal(await page.locator('#time .ts-units').count(), 1);
  assert.equal(await page.locator('#time .ts-footer .ts-units').count(), 1);
  assert.deepEqual(errors, []);
});

test('a sections="fit" element shows its model picker and "What fits on my GPUs", turned on (a deeper part: no number)', async (t) => {
  const { page, errors } = await openHost(t, { fit: '<trainscope-widget id="fit" preset="llama3-8b" sections="fit"></trainscope-widget>' }, 'fit');
  await settled(page, '#fit');
  assert.deepEqual(await sectionTitles(page, '#fit', 1), ['h2 What fits on my GPUs']);
  assert.equal(await page.locator('#fit details.ts-deeper-part').count(), 0, 'named on its own, the part is drawn open, with no disclosure');
  await page.locator('#fit section.ts-fit[aria-busy="false"] [data-figure="fit-methods"] .ts-fit-method').first().waitFor({ timeout: 20000 });
  assert.equal(await page.locator('#fit .ts-model').count(), 1, 'the goal’s model picker');
  assert.equal(await page.locator('#fit [data-figure="inference-total"]').count(), 0, 'no memory section');
  assert.deepEqual(errors, []);
});

test('a quiz-only widget has no model picker and no text about inputs, with or without its header', async (t) => {
  const { page, errors, warnings } = await openHost(t, {
    quiz: '<trainscope-widget id="bare" sections="quiz"></trainscope-widget>'
      + '<trainscope-widget id="headed" sections="quiz" header></trainscope-widget>',
  }, 'quiz', { width: 1000, height: 3000 });
  await settled(page, '#bare');
  await settled(page, '#headed');
  await page.locator('#bare [data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  assert.deepEqual(await chrome(page, '#bare'), { titles: 0, ledes: 0, pickers: 0, pointsAtInputs: false });
  assert.deepEqual(await chrome(page, '#headed'), { titles: 1, ledes: 1, pickers: 0, pointsAtInputs: false });
  assert.equal(await page.locator('#bare .ts-units, #bare .ts-footer').count(), 0, 'no figures, so no units note or figure caveat');
  // The quiz heading takes the level the missing title leaves: h2 under the page's h1.
  assert.equal(await page.locator('#bare .ts-quiz-title').evaluate((element) => element.localName), 'h2');
  assert.equal(await page.locator('#headed .ts-quiz-title').evaluate((element) => element.localName), 'h3');
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings, []);
});

test('the full page keeps its header, numbers the lesson\'s four parts and offers the deeper tools after the quiz', async (t) => {
  // The page carries its own CSP (index.html's meta element).
  const served = await serveDirectory(distDir, 0);
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(async () => {
    await context.close();
    await new Promise((resolve) => served.server.close(resolve));
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${served.url}index.html`);
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  assert.equal(await page.locator('.ts-title').count(), 1);
  assert.match(await page.locator('.ts-lede').textContent(), /numbers you can move/);
  assert.deepEqual(await sectionTitles(page, '[data-trainscope]', 5), [
    'h2 1. To run it, to train it',
    'h2 2. What each weight brings to training',
    'h2 3. Sharding and checkpointing make it fit',
    'h2 4. Time: thousands of GPUs for months',
    'h2 Go deeper',
  ]);
  assert.deepEqual(
    await page.locator('details.ts-deeper-part .ts-deeper-part-title').allTextContents(),
    ['Cluster layouts and communication', 'One training step, moment by moment', 'Activations in detail', 'Time over GPUs, and your own GPU', 'What fits on my GPUs?', 'Precision, optimizer and serving', 'Your own model'],
  );
  assert.deepEqual(errors, []);
});

// One bad value per attribute, then a good one. `sections` is set so every case builds little.
const BAD_ATTRIBUTES = [
  { name: 'preset', bad: 'llama9', good: 'llama3-8b' },
  { name: 'scenario', bad: '{oops', good: '{"parallel":{"gpus":8}}' },
  { name: 'scenario', bad: '{"parallel":{"gpus":-3}}', good: '{"parallel":{"gpus":8}}', why: 'refused by the engine' },
  { name: 'sections', bad: 'memry time', good: 'time' },
  { name: 'theme', bad: 'purple', good: 'dark' },
  { name: 'pass-mark', bad: '2', good: '0.5' },
  { name: 'header', bad: 'maybe', good: 'on' },
];

for (const { name, bad, good, why } of BAD_ATTRIBUTES) {
  test(`${name}="${bad}"${why ? ` (${why})` : ''}: one notice and one warning name the attribute; "${good}" clears them`, async (t) => {
    const sections = name === 'sections' ? '' : ' sections="time"';
    const body = `<trainscope-widget id="w"${sections} ${name}="${bad.replaceAll('"', '&quot;')}"></trainscope-widget>`;
    const { page, errors, warnings } = await openHost(t, { bad: body }, 'bad');
    await settled(page, '#w');
    const notices = page.locator('#w .ts-root > .ts-notice:not([hidden])');
    assert.equal(await notices.count(), 1, 'one notice');
    assert.match(await notices.textContent(), new RegExp(`The ${name} attribute`));
    const named = () => warnings.filter((text) => text.startsWith('<trainscope-widget>') && text.includes(`The ${name} attribute`));
    assert.equal(named().length, 1, 'one console warning names the attribute');
    assert.ok(await page.locator('#w [data-figure]').count() > 0, 'the widget still shows figures');

    await page.evaluate(([attribute, value]) => document.getElementById('w').setAttribute(attribute, value), [name, good]);
    await settled(page, '#w');
    await eventually(() => notices.count(), 0);
    assert.equal(named().length, 1, 'no further warning');
    assert.deepEqual(errors, []);
  });
}

test('several bad attributes at once: the one notice names every one, the console warns of each once', async (t) => {
  const body = '<trainscope-widget id="w" preset="llama9" theme="purple" pass-mark="2" sections="memry time"></trainscope-widget>';
  const { page, errors, warnings } = await openHost(t, { bad: body }, 'bad');
  await settled(page, '#w');
  const notices = page.locator('#w .ts-root > .ts-notice:not([hidden])');
  assert.equal(await notices.count(), 1);
  const notice = await notices.textContent();
  for (const name of ['preset', 'theme', 'pass-mark', 'sections']) {
    assert.match(notice, new RegExp(`The ${name} attribute`), `the notice names ${name}`);
    assert.equal(warnings.filter((text) => text.includes(`The ${name} attribute`)).length, 1, `one warning names ${name}`);
  }
  assert.deepEqual(errors, []);
});

test('a bad value set after the widget started shows its notice too, and one warning', async (t) => {
  const { page, errors, warnings } = await openHost(t, { late: '<trainscope-widget id="w" sections="time"></trainscope-widget>' }, 'late');
  await settled(page, '#w');
  const notices = page.locator('#w .ts-root > .ts-notice:not([hidden])');
  assert.equal(await notices.count(), 0);
  await page.evaluate(() => document.getElementById('w').setAttribute('theme', 'purple'));
  await eventually(() => notices.count(), 1);
  assert.match(await notices.textContent(), /The theme attribute/);
  // Another attribute's change leaves the problem standing without repeating its warning.
  await page.evaluate(() => document.getElementById('w').setAttribute('preset', 'llama3-8b'));
  await eventually(() => notices.count(), 1);
  assert.equal(warnings.filter((text) => text.includes('The theme attribute')).length, 1);
  assert.deepEqual(errors, []);
});

test('the example pages load with a clean console under the documented CSP', async (t) => {
  assert.ok(DOCUMENTED_CSP, 'docs/embedding.md states the policy');
  // The iframe example also needs what docs/embedding.md asks of an iframe host: frames from itself.
  for (const [path, policy] of [['embed/example.html', DOCUMENTED_CSP], ['iframe/example.html', `${DOCUMENTED_CSP}; frame-src 'self'`]]) {
    const served = await serveDirectory(distDir, 0, { headers: { 'content-security-policy': policy } });
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    t.after(async () => {
      await context.close();
      await new Promise((resolve) => served.server.close(resolve));
    });
    const page = await context.newPage();
    const { errors, warnings } = recordConsole(page);
    await page.goto(`${served.url}${path}`);
    if (path.startsWith('embed/')) {
      for (const widget of await page.locator('trainscope-widget').all()) {
        await widget.scrollIntoViewIfNeeded();
        await widget.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
      }
    } else {
      await page.frameLocator('iframe').locator('[data-ts-ready]').waitFor({ timeout: 20000 });
    }
    assert.deepEqual([...errors, ...warnings], [], path);
  }
});

test('every file the SCORM manifest names is in the package', async (t) => {
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const { files, report } = await packageManifest(page, 'trainscope-scorm12.zip', {
    cp: 'http://www.imsproject.org/xsd/imscp_rootv1p1p2',
    adlcp: 'http://www.adlnet.org/xsd/adlcp_rootv1p2',
    scormType: 'scormtype',
  });
  assert.equal(report.parseError, false, 'the manifest parses');
  assert.ok(report.named.includes('index.html'));
  for (const name of report.named) assert.ok(files.includes(name), `${name} is in the zip`);
});
