// docs/embedding.md gives the Content-Security-Policy each embedding needs, in a table. Each row
// is served here with exactly that policy, read from the docs, on a course page that embeds the
// widget as the docs show: the widget must answer (in German where asked, with the author's
// question where a bank is named), and neither page nor frame may log a blocked request or any
// console error. The iframe comes from a second server, another origin, as on a real course site.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { closeServerAfter, distDir, repoRoot } from './harness.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The rows of docs/embedding.md's policy table: { embedding, policy }. */
function documentedPolicies() {
  const docs = readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8');
  const table = docs.split('<!-- csp-table:')[1] ?? '';
  const rows = [];
  for (const line of table.split('\n').slice(1)) {
    if (!line.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    const cells = line.split('|').map((cell) => cell.trim());
    const policy = /^`([^`]+)`$/.exec(cells[2] ?? '')?.[1];
    if (policy) rows.push({ embedding: cells[1], policy });
  }
  return rows;
}

const policies = new Map(documentedPolicies().map(({ embedding, policy }) => [embedding, policy]));
const GERMAN_HEADING = JSON.parse(readFileSync(join(repoRoot, 'i18n', 'de', 'page.json'), 'utf8'))['lesson.run.heading'];
/** The author's bank docs/quiz.md builds (docs/examples/author-bank.json), and its questions' openings. */
const AUTHOR_BANK = readFileSync(join(repoRoot, 'docs', 'examples', 'author-bank.json'), 'utf8');
const AUTHOR_PROMPT = new RegExp(JSON.parse(AUTHOR_BANK).items
  .map((item) => item.prompt.split('{')[0].trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

async function serve(t, options) {
  const served = await serveDirectory(distDir, 0, options);
  closeServerAfter(t, served.server);
  return served;
}

/** Opens `address` and keeps every console error, warning and blocked request of the page and its frames. */
async function openRecorded(t, address) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`blocked: ${request.url()} (${request.failure()?.errorText})`));
  await page.goto(address);
  return { page, problems };
}

function coursePage(head, body) {
  return { type: 'text/html; charset=utf-8', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 3</title>${head}</head><body><h1>Week 3</h1>${body}</body></html>` };
}

async function openElementPage(t, embedding, widget, extra = {}) {
  const policy = policies.get(embedding);
  assert.ok(policy, `docs/embedding.md has a row "${embedding}"`);
  const host = coursePage('<script src="/embed/trainscope-widget.js" defer></script>', widget);
  const served = await serve(t, { headers: { 'content-security-policy': policy }, extra: { '/course/week3.html': host, ...extra } });
  const opened = await openRecorded(t, `${served.url}course/week3.html`);
  const element = opened.page.locator('trainscope-widget');
  await element.scrollIntoViewIfNeeded();
  await element.locator('[data-ts-ready]').waitFor({ timeout: 30000 });
  return { ...opened, element };
}

/** The iframe from a second origin, the course page under its row's policy with WIDGET_ORIGIN filled in. */
async function openFramePage(t, embedding, query, widgetExtra = {}) {
  const widgetServer = await serve(t, { extra: widgetExtra });
  const widgetOrigin = new URL(widgetServer.url).origin;
  const policy = policies.get(embedding)?.replaceAll('WIDGET_ORIGIN', widgetOrigin);
  assert.ok(policy, `docs/embedding.md has a row "${embedding}"`);
  const frame = `<iframe data-trainscope-frame data-trainscope-origin="${widgetOrigin}" title="Training vs running simulation"
    width="100%" height="900" src="${widgetOrigin}/iframe/index.html?${query}"></iframe>`;
  const host = coursePage('<script src="/embed/trainscope-iframe-host.js" defer></script>', frame);
  const courseServer = await serve(t, { headers: { 'content-security-policy': policy }, extra: { '/course/week3.html': host } });
  assert.notEqual(new URL(courseServer.url).origin, widgetOrigin, 'the frame is cross-origin');
  const opened = await openRecorded(t, `${courseServer.url}course/week3.html`);
  const widget = opened.page.frameLocator('iframe[data-trainscope-frame]');
  await widget.locator('[data-ts-ready]').waitFor({ timeout: 30000 });
  return { ...opened, widget };
}

test('the docs give a policy for every embedding, each starting from default-src none', () => {
  assert.deepEqual([...policies.keys()], [
    'element', 'element, German or Spanish', 'element with a `bank` file', 'iframe', 'iframe, German or Spanish, or with `?bank=`',
  ]);
  for (const [embedding, policy] of policies) assert.match(policy, /^default-src 'none';/, embedding);
  assert.match(policies.get('iframe'), /frame-src WIDGET_ORIGIN/, 'an iframe host must name the frame in frame-src');
});

test('element: answers under its documented policy with a clean console', async (t) => {
  const { element, problems } = await openElementPage(t, 'element', '<trainscope-widget preset="llama3-70b" sections="memory"></trainscope-widget>');
  assert.ok(Number(await element.locator('[data-value]').first().getAttribute('data-value')) > 0);
  assert.deepEqual(problems, []);
});

test('element in German: the language pack arrives under its documented policy', async (t) => {
  const { element, problems } = await openElementPage(t, 'element, German or Spanish', '<trainscope-widget lang="de" sections="memory"></trainscope-widget>');
  await element.getByText(GERMAN_HEADING).first().waitFor({ timeout: 10000 });
  assert.deepEqual(problems, []);
});

test('element with a bank file: the author’s question loads under its documented policy', async (t) => {
  const extra = { '/course/unit-3-bank.json': { type: 'application/json', body: AUTHOR_BANK } };
  const { element, problems } = await openElementPage(t, 'element with a `bank` file',
    '<trainscope-widget sections="quiz" bank="unit-3-bank.json"></trainscope-widget>', extra);
  await element.getByText(AUTHOR_PROMPT).first().waitFor({ timeout: 10000 });
  assert.deepEqual(problems, []);
});

test('iframe from another origin: the frame loads under the course page’s documented policy', async (t) => {
  const { widget, problems } = await openFramePage(t, 'iframe', 'preset=llama3-70b&sections=memory');
  assert.ok(Number(await widget.locator('[data-value]').first().getAttribute('data-value')) > 0);
  assert.deepEqual(problems, []);
});

test('iframe in German with a bank: the frame fetches both under its own policy, the course page needs nothing more', async (t) => {
  const extra = { '/course/unit-3-bank.json': { type: 'application/json', body: AUTHOR_BANK } };
  const { widget, problems } = await openFramePage(t, 'iframe, German or Spanish, or with `?bank=`',
    'lang=de&sections=memory%20quiz&bank=/course/unit-3-bank.json', extra);
  await widget.getByText(GERMAN_HEADING).first().waitFor({ timeout: 10000 });
  await widget.getByText(AUTHOR_PROMPT).first().waitFor({ timeout: 10000 });
  assert.deepEqual(problems, []);
});
