// A quiz the size of the lesson (issue 31 item 5; docs/quiz.md, "Sets") in Debian's Chromium, on a
// course page with <trainscope-widget> under the documented strict CSP: by default the lesson set
// (at most 14 questions, all four of the lesson's takeaways); the deeper questions one button away
// after it, never changing the score the host receives, which names its set; quiz="deeper" with
// draw="5", and the iframe page's ?quiz= and ?draw=; bad values named in the notice; progress saved
// before sets still loads.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { buildQuizUnits } from '../web/quiz-build.mjs';
import { artifactsDir, distDir, recordConsole, repoRoot } from './harness.mjs';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const docs = readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8');
const DOCUMENTED_CSP = /runs under `(default-src[^`]+)`/.exec(docs)?.[1];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const bank = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));
const units = await buildQuizUnits('quiz-sets-browser');
const { selectItems } = await import(units.state);
const { shortHash } = await import(units.bank);

const lessonItems = bank.items.filter((item) => (item.set ?? 'lesson') === 'lesson');
const deeperItems = bank.items.filter((item) => item.set === 'deeper');
const lessonIds = lessonItems.map((item) => item.id);
const deeperIds = deeperItems.map((item) => item.id);
const LESSON_TAKEAWAYS = ['memory-per-parameter', 'training-extras', 'sharding-checkpointing', 'compute-6nd'];
const storageKey = `trainscope-quiz:${shortHash(bank.takeaways.map((takeaway) => takeaway.id).join(','))}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

const coursePage = (body) => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title>
<script src="../embed/trainscope-widget.js" defer></script></head><body><main><h1>Week 3</h1>${body}</main></body></html>`,
});

/** Serves dist/ and a course page holding `widget` under the strict CSP; `saved`: progress already kept. */
async function open(t, widget, { saved = null, colorScheme = 'light', bypassCSP = false } = {}) {
  const served = await serveDirectory(distDir, 0, {
    headers: { 'content-security-policy': DOCUMENTED_CSP },
    // The browser asks for a favicon once the policy is bypassed for axe: an empty one, not a 404.
    extra: { '/host/course.html': coursePage(widget), '/favicon.ico': { type: 'image/x-icon', body: '' } },
  });
  // bypassCSP only to inject axe-core as an inline script (tests/browser/harness.mjs does the same).
  const context = await browser.newContext({ viewport: { width: 1100, height: 1400 }, colorScheme, bypassCSP });
  t.after(async () => {
    await context.close();
    await new Promise((resolve) => served.server.close(resolve));
  });
  await context.addInitScript(
    ([key, state]) => {
      // Before the first load only: a reload finds what the quiz saved since.
      if (state !== null && localStorage.getItem(key) === null) localStorage.setItem(key, state);
      window.scores = [];
      document.addEventListener('trainscope-score', (event) => window.scores.push(event.detail));
    },
    [storageKey, saved],
  );
  const page = await context.newPage();
  const { errors, warnings } = recordConsole(page);
  await page.goto(`${served.url}host/course.html`);
  await page.locator('trainscope-widget [data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  return { page, errors, warnings };
}

/** A score event's detail without its per-takeaway mastery (tests/browser/mastery.test.mjs looks at that). */
const withoutTakeaways = ({ takeaways, ...rest }) => (assert.ok(Array.isArray(takeaways)), rest);

const askedIds = (page) =>
  page.locator('trainscope-widget li.ts-quiz-item').evaluateAll((items) => items.map((item) => item.dataset.itemId));
const askedIdsIn = (page) => page.locator('li.ts-quiz-item').evaluateAll((items) => items.map((item) => item.dataset.itemId));

/** A saved state (the saved form of docs/quiz.md) with every one of `ids` answered right at the first try. */
function answered(ids, extra = {}) {
  return JSON.stringify({ v: 1, m: 'o', c: null, s: 4242, ...extra, i: Object.fromEntries(ids.map((id) => [id, [0, 1, 'c', 1, 0, 1]])) });
}

test('by default the quiz asks the lesson set: at most 14 questions, in the bank order, covering the four takeaways', async (t) => {
  const { page, errors } = await open(t, '<trainscope-widget sections="quiz"></trainscope-widget>');
  const asked = await askedIds(page);
  assert.deepEqual(asked, lessonIds);
  assert.ok(asked.length <= 14 && asked.length >= 10, `${asked.length} questions`);
  const takeaways = new Set(asked.map((id) => bank.items.find((item) => item.id === id).takeaway));
  assert.deepEqual([...takeaways].sort(), [...LESSON_TAKEAWAYS].sort());
  for (const id of [
    'qlora-base-bytes',
    'lora-model-states',
    'expert-parallel-splits',
    'context-parallel-long-context',
    'largest-micro-batch',
  ])
    assert.ok(!asked.includes(id), `${id} is past the lesson`);
  assert.match(
    await page.locator('trainscope-widget .ts-quiz-progress-text').textContent(),
    new RegExp(`^Question 1 of ${lessonIds.length} `),
  );
  // The first answer's score event covers the lesson set, and says so.
  const first = page.locator('trainscope-widget li.ts-quiz-item:not([hidden])');
  await first.locator('[data-action="reveal"]').click();
  const scores = await page.evaluate(() => window.scores);
  assert.equal(scores.length, 1);
  assert.deepEqual(withoutTakeaways(scores[0]), {
    score: 0,
    max: lessonIds.length,
    scaled: 0,
    passed: null,
    completed: false,
    answered: 1,
    right: 0,
    set: 'lesson',
  });
  assert.deepEqual(errors, []);
});

test('after the lesson set the learner may go on to the deeper questions; the score the host receives stays the lesson\u2019s', async (t) => {
  const { page, errors } = await open(t, '<trainscope-widget sections="quiz" pass-mark="0.7"></trainscope-widget>', {
    saved: answered(lessonIds),
  });
  const summary = page.locator('trainscope-widget .ts-quiz-summary');
  await summary.waitFor();
  assert.match(
    await summary.locator('.ts-quiz-score').textContent(),
    new RegExp(`^${lessonIds.length} of ${lessonIds.length} right: lesson questions`),
  );
  assert.match(await summary.locator('.ts-quiz-points').textContent(), /^Score for the lesson questions: /);
  assert.match(
    await summary.locator('.ts-quiz-pass').textContent(),
    /^That meets the course's pass mark of 70\s?% for the lesson questions\.$/,
  );
  const go = summary.locator('[data-action="continue-deeper"]');
  assert.equal(await go.textContent(), `Go on to ${deeperIds.length} deeper questions`);
  await page.locator('trainscope-widget .ts-quiz-root').screenshot({ path: join(artifactsDir, 'quiz-sets-summary.png') });
  assert.deepEqual(await askedIds(page), lessonIds, 'nothing deeper before the learner asks');
  await go.click();
  assert.deepEqual(await askedIds(page), [...lessonIds, ...deeperIds]);
  const shown = page.locator('trainscope-widget li.ts-quiz-item:not([hidden])');
  assert.equal(await shown.getAttribute('data-item-id'), deeperIds[0]);
  assert.match(
    await shown.locator('.ts-quiz-number').textContent(),
    new RegExp(`^Question ${lessonIds.length + 1} of ${bank.items.length}$`),
  );
  assert.equal(
    await page.evaluate(() => document.querySelector('trainscope-widget').shadowRoot.activeElement?.closest('li')?.dataset.itemId),
    deeperIds[0],
    'focus on the first deeper question',
  );
  // A deeper answer: the host's score is still the lesson set's, complete and passed.
  await shown.locator('[data-action="reveal"]').click();
  const last = (await page.evaluate(() => window.scores)).at(-1);
  assert.deepEqual(withoutTakeaways(last), {
    score: lessonIds.length,
    max: lessonIds.length,
    scaled: 1,
    passed: true,
    completed: true,
    answered: lessonIds.length,
    right: lessonIds.length,
    set: 'lesson',
  });
  // Going on is kept across a reload.
  await page.reload();
  await page.locator('trainscope-widget [data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  assert.equal((await askedIds(page)).length, bank.items.length);
  assert.deepEqual(errors, []);
});

test('progress saved before sets (every question of the bank answered) still loads, deeper answers kept for later', async (t) => {
  const { page, errors } = await open(t, '<trainscope-widget sections="quiz"></trainscope-widget>', {
    saved: answered(bank.items.map((item) => item.id)),
  });
  assert.deepEqual(await askedIds(page), lessonIds);
  const summary = page.locator('trainscope-widget .ts-quiz-summary');
  await summary.waitFor();
  assert.match(await summary.locator('.ts-quiz-score').textContent(), new RegExp(`^${lessonIds.length} of ${lessonIds.length} right`));
  await summary.locator('[data-action="continue-deeper"]').click();
  const statuses = await page.locator('trainscope-widget li.ts-quiz-item').evaluateAll((items) => items.map((item) => item.dataset.status));
  assert.deepEqual(
    statuses,
    bank.items.map(() => 'correct'),
    'the deeper answers saved earlier are there',
  );
  await page.locator('trainscope-widget .ts-quiz-nav [data-action="results"]').click();
  assert.match(
    await summary.locator('.ts-quiz-score-further').textContent(),
    new RegExp(`^${deeperIds.length} of ${deeperIds.length} right: deeper questions`),
  );
  assert.deepEqual(errors, []);
});

test('quiz="deeper" draw="5" asks five deeper questions, drawn by the learner seed; the score covers them', async (t) => {
  const saved = JSON.stringify({ v: 1, m: 'o', c: null, s: 4242, i: {} });
  const { page, errors } = await open(t, '<trainscope-widget sections="quiz" quiz="deeper" draw="5"></trainscope-widget>', { saved });
  const asked = await askedIds(page);
  assert.deepEqual(asked, selectItems(deeperIds, { order: 'fixed', draw: 5 }, 4242));
  assert.equal(asked.length, 5);
  assert.match(await page.locator('trainscope-widget .ts-quiz-progress-text').textContent(), /^Question 1 of 5 /);
  await page.locator('trainscope-widget li.ts-quiz-item:not([hidden]) [data-action="reveal"]').click();
  const [score] = await page.evaluate(() => window.scores);
  assert.equal(score.set, 'deeper');
  assert.equal(score.max, 5);
  assert.deepEqual(errors, []);
});

test('quiz="all" asks every question with no deeper step; a bad quiz or draw value is named and its default used', async (t) => {
  const { page, errors, warnings } = await open(t, '<trainscope-widget sections="quiz" quiz="advanced" draw="2.5"></trainscope-widget>');
  assert.deepEqual(await askedIds(page), lessonIds, 'the lesson set, every question of it');
  const notice = await page.locator('trainscope-widget .ts-notice').textContent();
  assert.match(notice, /The quiz attribute must be lesson, deeper or all, not “advanced”; the lesson questions are asked\./);
  assert.match(notice, /The draw attribute must be a whole number of questions, at least 1, not “2\.5”; every question is asked\./);
  assert.ok(
    warnings.some((line) => line.includes('quiz attribute')),
    warnings.join('\n'),
  );
  assert.deepEqual(errors, []);
  await page.evaluate(() => document.querySelector('trainscope-widget').setAttribute('quiz', 'all'));
  await page.waitForFunction(
    (count) => {
      const root = document.querySelector('trainscope-widget')?.shadowRoot;
      return root?.querySelector('[data-ts-quiz-ready]') && root.querySelectorAll('li.ts-quiz-item').length === count;
    },
    bank.items.length,
    { timeout: 20000 },
  );
  assert.deepEqual(
    await askedIds(page),
    bank.items.map((item) => item.id),
  );
});

test('the iframe page reads ?quiz= and ?draw= as the element reads its attributes', async (t) => {
  const served = await serveDirectory(distDir, 0, { headers: { 'content-security-policy': DOCUMENTED_CSP } });
  const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
  t.after(async () => {
    await context.close();
    await new Promise((resolve) => served.server.close(resolve));
  });
  await context.addInitScript((key) => localStorage.setItem(key, JSON.stringify({ v: 1, m: 'o', c: null, s: 4242, i: {} })), storageKey);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${served.url}iframe/index.html?sections=quiz&quiz=deeper&draw=5`);
  await page.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  assert.deepEqual(await askedIdsIn(page), selectItems(deeperIds, { order: 'fixed', draw: 5 }, 4242));
  await page.goto(`${served.url}iframe/index.html?sections=quiz&quiz=everything`);
  await page.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  assert.deepEqual(await askedIdsIn(page), lessonIds);
  assert.match(await page.locator('.ts-notice').textContent(), /The quiz attribute must be lesson, deeper or all, not “everything”/);
  assert.deepEqual(errors, []);
});

test('axe finds no WCAG A/AA violations in the summary that offers the deeper questions, nor in the first of them, light and dark', async (t) => {
  const missedOne = JSON.stringify({ v: 1, m: 'o', c: null, s: 4242, i: Object.fromEntries(lessonIds.map((id, index) => [id, index === 0 ? [0, 1, 'x', 0, 0, 1] : [0, 1, 'c', 1, 0, 1]])) });
  for (const colorScheme of ['light', 'dark']) {
    const { page, errors } = await open(t, '<trainscope-widget sections="quiz" pass-mark="0.7"></trainscope-widget>', { saved: missedOne, colorScheme, bypassCSP: true });
    await page.locator('trainscope-widget [data-action="continue-deeper"]').waitFor();
    await page.addScriptTag({ content: axeSource });
    const run = () =>
      page.evaluate(async () => {
        const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'] } });
        return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      });
    assert.deepEqual(await run(), [], `${colorScheme}: the summary with the way on`);
    await page.locator('trainscope-widget .ts-quiz-root').screenshot({ path: join(artifactsDir, `quiz-sets-go-on-${colorScheme}.png`) });
    await page.locator('trainscope-widget [data-action="continue-deeper"]').click();
    await page.locator(`trainscope-widget li.ts-quiz-item[data-item-id="${deeperIds[0]}"]:not([hidden])`).waitFor();
    assert.deepEqual(await run(), [], `${colorScheme}: the first deeper question`);
    await page.locator('trainscope-widget .ts-quiz-root').screenshot({ path: join(artifactsDir, `quiz-sets-deeper-${colorScheme}.png`) });
    assert.deepEqual(errors, []);
  }
});
