// The step simulation where learners meet it outside dist/index.html (issue 12, "done when"): in
// a <trainscope-widget> on a course page under the strict CSP docs/embedding.md promises, and in
// the offline file opened from disk. In each, play moves the playhead, pause holds it, the
// scrubber sets it, and nothing is logged.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { closeServerAfter, distDir, openDeeperParts, repoRoot } from './harness.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
/** The policy docs/embedding.md promises the element runs under, read from the docs themselves. */
const DOCUMENTED_CSP = /runs under `(default-src[^`]+)`/.exec(readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8'))?.[1];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

const COURSE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 3</title>
<script src="../embed/trainscope-widget.js" defer></script></head><body><h1>Week 3</h1>
<trainscope-widget preset="llama3-70b" sections="step"></trainscope-widget></body></html>`;

/** Opens `address` in a fresh context, recording every console error and warning and page error. */
async function open(t, address) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const logged = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') logged.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => logged.push(`page error: ${error.message}`));
  await page.goto(address);
  return { page, logged };
}

/** Brings the step section (in the page or inside the element's shadow root) near and waits for its chart. */
async function stepReady(page) {
  await page.waitForFunction(() => {
    const roots = [document, ...[...document.querySelectorAll('trainscope-widget')].map((el) => el.shadowRoot).filter(Boolean)];
    const section = roots.map((root) => root.querySelector('[data-ts-section="step"]')).find(Boolean);
    if (!section) return false;
    section.scrollIntoView({ block: 'center' });
    return section.querySelector('[data-figure="step-peak"][data-value]') !== null;
  }, null, { timeout: 30000, polling: 200 });
}

const phase = (page) => page.locator('.ts-step [data-figure="step-phase"]');
const phaseIndex = async (page) => Number(await phase(page).getAttribute('data-index'));

async function playPauseScrub(page) {
  const play = page.locator('.ts-step .ts-step-play');
  assert.equal(await phaseIndex(page), 0, 'the step opens at its start');
  await play.click();
  await page.waitForFunction(() => {
    const roots = [document, ...[...document.querySelectorAll('trainscope-widget')].map((el) => el.shadowRoot).filter(Boolean)];
    const shown = roots.map((root) => root.querySelector('.ts-step [data-figure="step-phase"]')).find(Boolean);
    return Number(shown.dataset.index) > 3;
  }, null, { timeout: 15000 });
  await play.click();
  const held = await phaseIndex(page);
  await page.waitForTimeout(300);
  assert.equal(await phaseIndex(page), held, 'paused: the playhead holds');

  const scrubber = page.locator('.ts-step .ts-step-scrubber');
  const last = Number(await scrubber.getAttribute('max'));
  assert.ok(last > 10, `a step of many events (max ${last})`);
  await scrubber.focus();
  await page.keyboard.press('End');
  assert.equal(await phaseIndex(page), last, 'End moves the playhead to the last event');
  assert.match(await phase(page).textContent(), /optimizer/i, 'the step ends with the optimizer');
  await page.keyboard.press('Home');
  assert.equal(await phaseIndex(page), 0, 'Home moves it back to the start');
}

test('in a <trainscope-widget> under the documented strict CSP, the step plays, pauses and scrubs, and nothing is logged', async (t) => {
  assert.ok(DOCUMENTED_CSP, 'docs/embedding.md states the policy');
  const served = await serveDirectory(distDir, 0, {
    headers: { 'content-security-policy': DOCUMENTED_CSP },
    extra: { '/host/course.html': { type: 'text/html; charset=utf-8', body: COURSE_PAGE } },
  });
  closeServerAfter(t, served.server);
  const { page, logged } = await open(t, `${served.url}host/course.html`);
  await stepReady(page);
  await playPauseScrub(page);
  assert.deepEqual(logged, []);
});

test('in the offline file opened from disk, the step plays, pauses and scrubs, and nothing is logged', async (t) => {
  const { page, logged } = await open(t, pathToFileURL(join(distDir, 'trainscope.html')).href);
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  await openDeeperParts(page);
  await stepReady(page);
  await playPauseScrub(page);
  assert.deepEqual(logged, []);
});
