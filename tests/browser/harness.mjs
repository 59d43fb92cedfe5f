// Shared set-up for the browser tests: Debian's Chromium (never a downloaded browser) driven by
// playwright-core, the built page served from dist/ on 127.0.0.1, console errors collected.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distDir = join(repoRoot, 'dist');
export const artifactsDir = join(repoRoot, 'test-artifacts');
export const fileUrl = pathToFileURL(join(distDir, 'index.html')).href;
const bank = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * Stops `server` when test `t` ends, with the connections a browser may still hold. After-hooks
 * run in the order they were registered, so a context closed by a later hook is still open here,
 * and close() alone would wait for its connections (a lms.test.mjs run hung for 10 minutes).
 */
export function closeServerAfter(t, server) {
  t.after(() => new Promise((resolve) => {
    server.close(resolve);
    server.closeAllConnections();
  }));
}

export async function startHarness() {
  if (!existsSync(join(distDir, 'trainscope.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  mkdirSync(artifactsDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const { server, url } = await serveDirectory(distDir, 0);
  return {
    browser,
    url,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A new page that records console errors, page errors and any request leaving 127.0.0.1/file:.
 * Waits until the widget says it is ready.
 */
export async function openPage(browser, address, options = {}) {
  const context = options.context ?? await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
    // Only for injecting axe-core as an inline script; the page's own CSP stays on otherwise.
    bypassCSP: options.bypassCSP ?? false,
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const target = request.url();
    if (!target.startsWith('http://127.0.0.1:') && !target.startsWith('file:') && !target.startsWith('data:')) {
      problems.push(`network request to ${target}`);
    }
  });
  await page.goto(address);
  await page.waitForSelector(options.readySelector ?? '[data-ts-ready]', { timeout: options.readyTimeout ?? 15000 });
  // Most tests exercise the tools: every deeper part open, as the page was before the lesson path.
  // `deeperClosed` keeps the page as a learner first meets it (tests/browser/lesson-path.test.mjs).
  if (!options.deeperClosed) await openDeeperParts(page);
  return { page, context, problems };
}

/**
 * Opens `address` (openPage), runs `body(page, context)`, then checks that the page logged no
 * error or warning and reached nothing outside, and closes the context whatever happened.
 */
export async function withOpenPage(browser, address, options, body) {
  const { page, context, problems } = await openPage(browser, address, options);
  try {
    await body(page, context);
    assert.deepEqual(problems, [], 'no console errors, page errors or outside requests');
  } finally {
    await context.close();
  }
}

/** The engine's own estimate for the page's current scenario, computed in the page. */
export function engineEstimate(page) {
  return page.evaluate(() => JSON.parse(window.trainscope.engine.module.estimate(JSON.stringify(window.trainscope.overrides()))));
}

export function figure(page, name) {
  return page.locator(`[data-figure="${name}"]`).first();
}

/**
 * Opens every deeper part (docs/page.md, "The lesson path": each waits behind a disclosure and is
 * built when opened), in the page and in every widget's shadow root, as a learner who wants every
 * tool would; then waits until each is built.
 */
export async function openDeeperParts(page) {
  const everyRoot = () => [document, ...[...document.querySelectorAll('*')].filter((element) => element.shadowRoot).map((element) => element.shadowRoot)];
  await page.evaluate(`(${everyRoot})().forEach((root) => root.querySelectorAll('details.ts-deeper-part').forEach((details) => { details.open = true; }))`);
  await page.waitForFunction(
    `(${everyRoot})().every((root) => [...root.querySelectorAll('details.ts-deeper-part')].every((details) => details.querySelector('.ts-section:not(.ts-section-pending)')))`,
    null,
    { timeout: 20000 },
  );
}

/** Polls `read()` until `check(value)` holds; fails with the last value after `timeout` ms. */
export async function until(read, check, timeout = 8000) {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  assert.ok(check(value), `gave up waiting; last value: ${JSON.stringify(value)?.slice(0, 600)}`);
  return value;
}

/**
 * Answers the practice question on screen in `scope` (a page or frame locator) right: the engine's
 * answer for its seed, computed in `enginePage` (a page of the built widget), or the bank's right
 * options; waits for the verdict and returns the question's bank entry.
 */
export async function answerPracticeRight(scope, enginePage = scope) {
  const li = scope.locator('.ts-quiz-practice-items > li');
  const id = (await li.getAttribute('data-item-id')).replace(/^practice~/, '');
  const seed = Number(await li.getAttribute('data-seed'));
  const raw = bank.items.find((item) => item.id === id);
  if (raw.kind === 'numeric' || raw.kind === 'estimate') {
    const expected = await enginePage.evaluate(
      ([item, itemSeed]) => JSON.parse(window.trainscope.engine.module.quizInstance(item, itemSeed)).expected_display,
      [JSON.stringify(raw), seed],
    );
    await li.locator('.ts-quiz-text-input').fill(expected);
  } else {
    for (const option of raw.options.filter((entry) => entry.correct)) await li.locator(`input[value="${option.id}"]`).check();
  }
  await li.locator('[data-action="check"]').click();
  await li.locator('.ts-quiz-feedback-correct').waitFor();
  return raw;
}

/** Scrolls to "What fits" and waits until it shows the engine's answer for the page's scenario; returns the section. */
export async function openFit(page) {
  // Scrolled without Playwright's stability wait: the placeholder is replaced by the section as it nears.
  await page.waitForFunction(() => {
    document.querySelector('[data-ts-section="fit"]')?.scrollIntoView({ block: 'start' });
    const section = document.querySelector('section.ts-fit');
    return (
      section?.getAttribute('aria-busy') === 'false' &&
      section.getAttribute('data-fit-key') === JSON.stringify(window.trainscope.scenario())
    );
  });
  return page.locator('section.ts-fit');
}

/** Records `page`'s console errors (with its page errors, as "page error: …") and console warnings in the lists it returns. */
export function recordConsole(page) {
  const errors = [];
  const warnings = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return { errors, warnings };
}
