// The three ways trainscope ships (docs/embedding.md), each in Debian's Chromium:
// the offline single file, the <trainscope-widget> element under a strict CSP, the iframe page
// with its auto-height host script, and the SCORM 1.2 package against a fake LMS.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { artifactsDir, distDir, repoRoot } from './harness.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const STRICT_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const bank = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));
const firstChoiceItem = bank.items.find((item) => item.kind === 'single_choice');
const fixture = (name) => readFileSync(join(repoRoot, 'tests', 'browser', 'fixtures-ship', name), 'utf8');

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

/** A page that records everything that could go wrong: console errors, page errors, requests. */
async function watchedPage(context) {
  const page = await context.newPage();
  const problems = [];
  const warnings = [];
  const requests = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  context.on('request', (request) => requests.push(request.url()));
  return { page, problems, warnings, requests };
}

/** Polls until `read()` returns `expected` (or gives up after `timeout` ms and fails with the last value). */
async function eventually(read, expected, timeout = 5000) {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  assert.equal(value, expected);
}

/** Answers the bank's first single-choice question right, inside `scope` (a locator; shadow roots are pierced). */
async function answerFirstChoiceQuestion(scope) {
  const question = scope.locator(`.ts-quiz-item[data-item-id="${firstChoiceItem.id}"]`);
  const correct = firstChoiceItem.options.find((option) => option.correct).id;
  await question.locator(`input[value="${correct}"]`).check();
  await question.getByRole('button', { name: 'Check answer' }).click();
  await eventually(() => question.getAttribute('data-status'), 'correct');
}

test('the offline file opens from disk in a fresh profile and makes no request but itself', async (t) => {
  const context = await newContext(t, { viewport: { width: 1280, height: 900 } });
  const { page, problems, requests } = await watchedPage(context);
  const fileUrl = pathToFileURL(join(distDir, 'trainscope.html')).href;
  await page.goto(fileUrl);
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  const shown = await page.locator('[data-figure="inference-total"]').getAttribute('data-value');
  const computed = await page.evaluate(() => window.trainscope.estimate().inference.total);
  assert.equal(Number(shown), computed, 'the figure is the engine’s');
  assert.deepEqual(requests, [fileUrl], 'exactly one request: the file itself');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(policy, /script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(policy, /unsafe-inline/);
  assert.deepEqual(problems, []);
});

test('the offline file keeps quiz progress across a reload where the browser allows storage', async (t) => {
  const context = await newContext(t);
  const { page, problems } = await watchedPage(context);
  await page.goto(pathToFileURL(join(distDir, 'trainscope.html')).href);
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  await answerFirstChoiceQuestion(page.locator('body'));
  await page.reload();
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  assert.equal(await page.locator(`.ts-quiz-item[data-item-id="${firstChoiceItem.id}"]`).getAttribute('data-status'), 'correct');
  assert.deepEqual(problems, []);
});

/** A browser context closed when the test ends, pass or fail. */
async function newContext(t, options = {}) {
  const context = await browser.newContext(options);
  t.after(() => context.close());
  return context;
}

/** Serves dist/ (plus `options.extra` pages) until the test ends. */
async function serveWithCleanup(t, options) {
  const served = await serveDirectory(distDir, 0, options);
  t.after(() => new Promise((resolve) => served.server.close(resolve)));
  return served;
}

async function serveHost(t, extra = {}, policy = STRICT_CSP) {
  return serveWithCleanup(t, {
    headers: { 'content-security-policy': policy },
    extra: {
      '/host/index.html': { type: 'text/html; charset=utf-8', body: fixture('host.html') },
      '/host/host.css': { type: 'text/css', body: fixture('host.css') },
      ...extra,
    },
  });
}

test('the element works under a strict CSP, lazily, in its own shadow root, and reports the score', async (t) => {
  const { url } = await serveHost(t);
  const context = await newContext(t, { viewport: { width: 1100, height: 900 } });
  const { page, problems } = await watchedPage(context);
  await page.goto(`${url}host/index.html`);
  const first = page.locator('#first');
  await first.locator('[data-ts-ready]').waitFor({ timeout: 20000 });

  // Lazy: the second widget is far below the fold and has not started its engine.
  assert.equal(await page.locator('#far .ts-root').count(), 0, 'the far widget waits for the viewport');

  // Styles do not cross the shadow boundary either way.
  const heading = await first.locator('.ts-title').evaluate((element) => getComputedStyle(element).color);
  assert.notEqual(heading, 'rgb(255, 0, 0)', 'the host’s h1 rule does not reach the widget');
  const spacing = await first.locator('.ts-lede').evaluate((element) => getComputedStyle(element).letterSpacing);
  assert.equal(spacing, 'normal', 'inherited host text styles are reset at the widget’s root');
  const hostButton = await page.locator('#host-button').evaluate((element) => getComputedStyle(element).borderRadius);
  assert.equal(hostButton, '0px', 'the widget’s .ts-button rule does not reach the host');

  // The score reaches the host as a DOM event from the element.
  await page.evaluate(() => {
    window.scores = [];
    document.addEventListener('trainscope-score', (event) => window.scores.push({ target: event.target.id, ...event.detail }));
  });
  await answerFirstChoiceQuestion(first);
  const scores = await page.evaluate(() => window.scores);
  assert.equal(scores.length, 1);
  assert.equal(scores[0].target, 'first');
  assert.equal(scores[0].score, 1);
  assert.equal(scores[0].max, bank.items.length);

  // Scrolling to the far widget starts it; the two do not interfere.
  await page.locator('#far').scrollIntoViewIfNeeded();
  await page.locator('#far [data-ts-ready]').waitFor({ timeout: 20000 });
  const before = await page.evaluate(() => document.getElementById('far').widget.estimate().params);
  await page.evaluate(() => document.getElementById('first').setAttribute('preset', 'llama3-8b'));
  assert.equal(await page.evaluate(() => document.getElementById('first').widget.estimate().params),
    await page.evaluate(() => JSON.parse(document.getElementById('first').widget.engine.module.estimate('{"model":{"preset":"llama3-8b"}}')).params));
  assert.equal(await page.evaluate(() => document.getElementById('far').widget.estimate().params), before);
  assert.equal(await page.locator('#far [data-figure="inference-total"]').count(), 0, 'sections="time" shows no memory figures');
  const farBackground = await page.locator('#far .ts-root').evaluate((element) => getComputedStyle(element).backgroundColor);
  assert.equal(farBackground, 'rgb(21, 23, 28)', 'theme="dark" is dark even in a light page');

  assert.deepEqual(problems, [], 'no CSP violations, no errors');
  await page.screenshot({ path: join(artifactsDir, 'embed-element.png'), fullPage: false });
});

test('the element fetches its engine only when it comes near the viewport', async (t) => {
  const { url } = await serveHost(t, { '/host/lazy.html': { type: 'text/html; charset=utf-8', body: fixture('lazy.html') } });
  const context = await newContext(t);
  const { page, problems, requests } = await watchedPage(context);
  await page.goto(`${url}host/lazy.html`);
  await page.waitForFunction(() => customElements.get('trainscope-widget') !== undefined);
  await page.waitForTimeout(500);
  const engineRequests = () => requests.filter((address) => address.endsWith('/embed/trainscope-engine.js'));
  assert.deepEqual(engineRequests(), [], 'nothing heavy is fetched for a widget far below the fold');
  await page.locator('#below').scrollIntoViewIfNeeded();
  await page.locator('#below [data-ts-ready]').waitFor({ timeout: 20000 });
  assert.equal(engineRequests().length, 1, 'the engine script is fetched once, on approach');
  assert.deepEqual(problems, [], 'the engine script loads under the strict CSP');
});

test('two widgets on one page keep their own quiz progress, across a reload', async (t) => {
  const { url } = await serveHost(t, { '/host/two.html': { type: 'text/html; charset=utf-8', body: fixture('two.html') } });
  const context = await newContext(t, { viewport: { width: 1000, height: 2400 } });
  const { page, problems } = await watchedPage(context);
  await page.goto(`${url}host/two.html`);
  const widgets = page.locator('trainscope-widget');
  await widgets.nth(0).locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  await widgets.nth(1).locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  const status = (index) => widgets.nth(index).locator(`.ts-quiz-item[data-item-id="${firstChoiceItem.id}"]`).getAttribute('data-status');
  await answerFirstChoiceQuestion(widgets.nth(0));
  assert.equal(await status(1), 'new', 'answering in one widget leaves the other alone');
  await page.reload();
  await widgets.nth(1).locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  await widgets.nth(0).locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  assert.equal(await status(0), 'correct');
  assert.equal(await status(1), 'new');
  assert.deepEqual(problems, []);
});

test('bad attribute values give a message inside the widget and nothing uncaught', async (t) => {
  const { url } = await serveHost(t, {
    '/host/bad.html': { type: 'text/html; charset=utf-8', body: fixture('bad-attributes.html') },
  });
  const context = await newContext(t);
  const { page, problems, warnings } = await watchedPage(context);
  await page.goto(`${url}host/bad.html`);
  const widget = page.locator('#bad');
  await widget.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  const notice = await widget.locator('.ts-notice').textContent();
  assert.match(notice, /theme/);
  assert.match(notice, /pass-mark/);
  assert.match(notice, /scenario/);
  assert.ok(warnings.some((text) => text.includes('<trainscope-widget>')), 'the console says which attribute is wrong');
  assert.ok(Number(await widget.locator('[data-figure="inference-total"]').getAttribute('data-value')) > 0, 'the widget still shows figures');
  assert.deepEqual(problems, []);
});

test('the iframe page sizes its frame and sends the score; messages from elsewhere are ignored', async (t) => {
  // The same strict policy, plus the one thing an iframe host must allow: frames from itself.
  const { url } = await serveHost(t, {
    '/host/frames.html': { type: 'text/html; charset=utf-8', body: fixture('frames.html') },
  }, `${STRICT_CSP}; frame-src 'self'`);
  const context = await newContext(t, { viewport: { width: 1000, height: 800 } });
  const { page, problems } = await watchedPage(context);
  await page.goto(`${url}host/frames.html`);
  const frameElement = page.locator('#framed');
  await page.waitForFunction(() => document.getElementById('framed').style.height !== '', null, { timeout: 20000 });
  const frame = page.frameLocator('#framed');
  await frame.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  await page.waitForFunction(() => {
    const framed = document.getElementById('framed');
    const content = framed.contentDocument.querySelector('[data-trainscope]');
    return Math.abs(parseFloat(framed.style.height) - Math.ceil(content.getBoundingClientRect().height)) <= 1;
  }, null, { timeout: 10000 });
  assert.ok(parseFloat(await frameElement.evaluate((element) => element.style.height)) > 1500, 'the frame grew to its content');

  // A message from the host page itself (not the frame) does not resize anything.
  const height = await frameElement.evaluate((element) => element.style.height);
  await page.evaluate(() => window.postMessage({ type: 'trainscope:height', height: 10 }, '*'));
  await page.waitForTimeout(200);
  assert.equal(await frameElement.evaluate((element) => element.style.height), height);

  await page.evaluate(() => {
    window.scores = [];
    document.getElementById('framed').addEventListener('trainscope-score', (event) => window.scores.push(event.detail));
  });
  await answerFirstChoiceQuestion(frame.locator('body'));
  await page.waitForFunction(() => window.scores.length === 1);
  const [score] = await page.evaluate(() => window.scores);
  assert.equal(score.score, 1);
  assert.equal(score.max, bank.items.length);

  // A sandboxed frame (no allow-same-origin: no storage, opaque origin) still works and resizes.
  await page.waitForFunction(() => document.getElementById('sandboxed').style.height !== '', null, { timeout: 20000 });
  const sandboxed = page.frameLocator('#sandboxed');
  await sandboxed.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  await answerFirstChoiceQuestion(sandboxed.locator('body'));
  assert.deepEqual(problems, []);
});

function unzip(zipPath) {
  const folder = mkdtempSync(join(tmpdir(), 'trainscope-scorm-'));
  execFileSync('unzip', ['-q', zipPath, '-d', folder]);
  return folder;
}

test('the SCORM package has a valid SCORM 1.2 manifest at its root', async (t) => {
  const folder = unzip(join(distDir, 'trainscope-scorm12.zip'));
  const files = readdirSync(folder).sort();
  assert.deepEqual(files, ['imsmanifest.xml', 'index.html']);
  const context = await newContext(t);
  const page = await context.newPage();
  const report = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const cp = 'http://www.imsproject.org/xsd/imscp_rootv1p1p2';
    const adlcp = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
    const one = (parent, name) => parent.getElementsByTagNameNS(cp, name)[0] ?? null;
    const manifest = doc.documentElement;
    const organizations = one(manifest, 'organizations');
    const organization = one(organizations, 'organization');
    const item = one(organization, 'item');
    const resource = one(one(manifest, 'resources'), 'resource');
    return {
      parseError: doc.getElementsByTagName('parsererror').length > 0,
      root: `${manifest.namespaceURI} ${manifest.localName}`,
      identifier: manifest.getAttribute('identifier'),
      schema: one(one(manifest, 'metadata'), 'schema')?.textContent,
      schemaVersion: one(one(manifest, 'metadata'), 'schemaversion')?.textContent,
      defaultOrganization: organizations.getAttribute('default') === organization.getAttribute('identifier'),
      title: one(organization, 'title')?.textContent,
      itemPointsToResource: item.getAttribute('identifierref') === resource.getAttribute('identifier'),
      scormType: resource.getAttributeNS(adlcp, 'scormtype'),
      type: resource.getAttribute('type'),
      href: resource.getAttribute('href'),
      files: [...resource.getElementsByTagNameNS(cp, 'file')].map((file) => file.getAttribute('href')),
    };
  }, readFileSync(join(folder, 'imsmanifest.xml'), 'utf8'));
  assert.equal(report.parseError, false);
  assert.equal(report.root, 'http://www.imsproject.org/xsd/imscp_rootv1p1p2 manifest');
  assert.ok(report.identifier);
  assert.equal(report.schema, 'ADL SCORM');
  assert.equal(report.schemaVersion, '1.2');
  assert.ok(report.defaultOrganization, 'organizations@default names the organization');
  assert.ok(report.title);
  assert.ok(report.itemPointsToResource, 'item@identifierref names the resource');
  assert.equal(report.scormType, 'sco');
  assert.equal(report.type, 'webcontent');
  assert.ok(files.includes(report.href), 'the launch file is in the package');
  for (const file of report.files) assert.ok(files.includes(file), `${file} is in the package`);
});

test('the SCO reports to a fake LMS: initialise, score, status, suspend data, commit, finish', async (t) => {
  const folder = unzip(join(distDir, 'trainscope-scorm12.zip'));
  const { url } = await serveWithCleanup(t, {
    extra: {
      '/lms/index.html': { type: 'text/html; charset=utf-8', body: fixture('lms.html') },
      '/lms/fake-lms.js': { type: 'text/javascript', body: fixture('fake-lms.js') },
      '/sco/index.html': { type: 'text/html; charset=utf-8', body: readFileSync(join(folder, 'index.html')) },
    },
  });
  const context = await newContext(t);
  const { page, problems } = await watchedPage(context);
  await page.goto(`${url}lms/index.html`);
  const sco = page.frameLocator('#sco');
  await sco.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  await answerFirstChoiceQuestion(sco.locator('body'));

  const calls = await page.evaluate(() => window.lmsCalls);
  assert.deepEqual(calls[0], ['LMSInitialize', '']);
  const set = (element) => calls.filter((call) => call[0] === 'LMSSetValue' && call[1] === element).map((call) => call[2]);
  assert.deepEqual(set('cmi.core.lesson_status')[0], 'incomplete');
  assert.equal(set('cmi.core.score.min').at(-1), '0');
  assert.equal(set('cmi.core.score.max').at(-1), '100');
  assert.equal(set('cmi.core.score.raw').at(-1), String(Math.round(100 / bank.items.length)));
  const suspended = set('cmi.suspend_data').at(-1);
  assert.ok(suspended && suspended.length <= 4096, 'quiz state fits SCORM 1.2’s 4,096 characters');
  assert.ok(calls.some((call) => call[0] === 'LMSCommit'), 'the LMS is asked to commit');

  // A new session in the same LMS picks the progress up from cmi.suspend_data.
  await page.evaluate(() => { document.getElementById('sco').src = '/sco/index.html'; });
  await page.waitForFunction(() => window.lmsCalls.some((call) => call[0] === 'LMSFinish'));
  await sco.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  assert.equal(await sco.locator(`.ts-quiz-item[data-item-id="${firstChoiceItem.id}"]`).getAttribute('data-status'), 'correct');
  const all = await page.evaluate(() => window.lmsCalls);
  const finishAt = all.findIndex((call) => call[0] === 'LMSFinish');
  const sessionTime = all.slice(0, finishAt).filter((call) => call[1] === 'cmi.core.session_time').at(-1)?.[2];
  assert.match(sessionTime, /^\d{4}:\d{2}:\d{2}\.\d{2}$/);
  assert.deepEqual(problems, []);
});

test('without an LMS the SCO runs as a plain page', async (t) => {
  const folder = unzip(join(distDir, 'trainscope-scorm12.zip'));
  const context = await newContext(t);
  const { page, problems } = await watchedPage(context);
  await page.goto(pathToFileURL(join(folder, 'index.html')).href);
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  await answerFirstChoiceQuestion(page.locator('body'));
  assert.deepEqual(problems, []);
});
