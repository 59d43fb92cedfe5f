// An author's own bank (docs/quiz.md, "Your own bank") in Debian's Chromium: given by the `bank`
// attribute, by a <script type="application/json"> child and by the iframe's ?bank=, under the
// documented strict CSP plus connect-src 'self'. A broken item is named (item and field) in the
// widget and the console and never shown, the rest run; a bank that cannot be loaded names itself
// and the built-in questions run instead; draw and order are honoured; the bank's pass mark
// decides `passed` in the score event the host (and the SCORM package) receives, unless the host
// sets its own.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { buildQuizUnits } from '../web/quiz-build.mjs';
import { artifactsDir, closeServerAfter, distDir, recordConsole, repoRoot } from './harness.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const docs = readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8');
const DOCUMENTED_CSP = /runs under `(default-src[^`]+)`/.exec(docs)?.[1];
/** What docs/quiz.md says a `bank` file needs on top of the strict policy. */
const BANK_CSP = `${DOCUMENTED_CSP}; connect-src 'self'`;
const example = JSON.parse(readFileSync(join(repoRoot, 'docs', 'examples', 'author-bank.json'), 'utf8'));
const builtIn = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));
/** What the built-in bank asks by default: its lesson set (docs/quiz.md, "Sets"). */
const builtInLesson = builtIn.items.filter((item) => (item.set ?? 'lesson') === 'lesson');
const units = await buildQuizUnits('author-bank-browser');
const { selectItems } = await import(units.state);
const { shortHash } = await import(units.bank);

/** The example bank with `changes` over its settings (order, draw, pass_mark; undefined removes one). */
function bankWith(changes, items = example.items) {
  const bank = { ...example, ...changes, items };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete bank[key];
  return bank;
}
const exampleIds = example.items.map((item) => item.id);
/** An item the engine refuses: its second option says nothing about why it is wrong. */
const brokenItem = JSON.parse(JSON.stringify(example.items[1]));
brokenItem.id = 'broken-item';
brokenItem.options[1].feedback = '';
const brokenBank = bankWith({ order: undefined, draw: undefined, pass_mark: undefined }, [example.items[0], brokenItem, ...example.items.slice(1)]);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

const json = (value) => ({ type: 'application/json', body: JSON.stringify(value) });
const coursePage = (body) => ({ type: 'text/html; charset=utf-8', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title>
<script src="../embed/trainscope-widget.js" defer></script></head><body><h1>Week 3</h1>${body}</body></html>` });

/**
 * Serves dist/ plus `extra` files under the strict CSP with connect-src 'self'; opens `path` with
 * the learner seed `learner` already saved for the example bank (so draw and order are known).
 */
async function open(t, extra, path, { learner = 0, viewport = { width: 1100, height: 1400 }, colorScheme = 'light' } = {}) {
  const served = await serveDirectory(distDir, 0, { headers: { 'content-security-policy': BANK_CSP }, extra });
  const context = await browser.newContext({ viewport, colorScheme });
  t.after(async () => {
    await context.close();
    await new Promise((resolve) => served.server.close(resolve));
  });
  if (learner) {
    const key = `trainscope-quiz:${shortHash(example.takeaways.map((takeaway) => takeaway.id).join(','))}`;
    await context.addInitScript(([name, state]) => localStorage.setItem(name, state), [key, JSON.stringify({ v: 1, m: 'o', c: null, s: learner, i: {} })]);
  }
  const page = await context.newPage();
  const { errors, warnings } = recordConsole(page);
  const requests = [];
  page.on('request', (request) => {
    requests.push(request.url());
    if (!request.url().startsWith(served.url)) errors.push(`request outside: ${request.url()}`);
  });
  await page.goto(`${served.url}${path}`);
  return { page, errors, warnings, requests };
}

/** The ids of the questions the quiz in `scope` asks, in its order. */
async function askedIds(page, scope) {
  await page.locator(`${scope} [data-ts-quiz-ready]`).waitFor({ timeout: 20000 });
  return page.locator(`${scope} li.ts-quiz-item`).evaluateAll((items) => items.map((item) => item.dataset.itemId));
}

/** A score event's detail without its per-takeaway mastery (tests/browser/mastery.test.mjs looks at that). */
const withoutTakeaways = ({ takeaways, ...rest }) => (assert.ok(Array.isArray(takeaways)), rest);

test('a bank file by attribute: the broken item is named by item and field, never shown; the rest run', async (t) => {
  const { page, errors, warnings } = await open(t, {
    '/host/course.html': coursePage('<trainscope-widget id="unit" sections="quiz" bank="banks/unit-3.json"></trainscope-widget>'),
    '/host/banks/unit-3.json': json(brokenBank),
  }, 'host/course.html');
  assert.deepEqual(await askedIds(page, '#unit'), exampleIds, 'every valid item, in the bank\'s order; not the broken one');
  const notice = page.locator('#unit .ts-quiz-notice');
  assert.match(await notice.locator('p').first().textContent(), /^1 question was left out because it has mistakes in the question bank “banks\/unit-3\.json”\. The other 4 questions work as usual\.$/);
  const details = await notice.locator('.ts-quiz-notice-details li').allTextContents();
  assert.ok(details.includes('Question “broken-item”, options[1].feedback: must say why this option is right or wrong'), details.join('\n'));
  assert.ok(warnings.some((line) => line.includes('banks/unit-3.json') && line.includes('“broken-item”, options[1].feedback')), warnings.join('\n'));
  // The visible question is the author's, not the built-in bank's; a plain number asks for no unit.
  const shown = page.locator('#unit li.ts-quiz-item:not([hidden])');
  assert.match(await shown.locator('.ts-quiz-prompt').textContent(), /^Your team trains a model with 8 billion parameters/);
  assert.equal(await shown.locator('.ts-quiz-hint').textContent(), 'Type a number.');
  await page.locator('#unit .ts-quiz-notice').screenshot({ path: join(artifactsDir, 'author-bank-notice.png') });
  assert.deepEqual(errors, []);
});

test('a bank in a script child: its draw and shuffled order are honoured for the learner', async (t) => {
  const learner = 4242;
  const bank = bankWith({ order: 'shuffled', draw: 3 });
  const { page, errors, warnings } = await open(t, {
    // "</" cannot end the script early: JSON.stringify leaves none in this bank.
    '/host/inline.html': coursePage(`<trainscope-widget sections="quiz"><script type="application/json">${JSON.stringify(bank)}</script></trainscope-widget>`),
  }, 'host/inline.html', { learner });
  const expected = selectItems(exampleIds, { order: 'shuffled', draw: 3 }, learner);
  assert.equal(expected.length, 3);
  // An id-less widget keeps the bank's progress, where the learner seed was saved.
  assert.deepEqual(await askedIds(page, 'trainscope-widget'), expected);
  assert.match(await page.locator('trainscope-widget .ts-quiz-progress-text').textContent(), /^Question 1 of 3 /);
  // The script child is data: the browser neither shows nor runs it.
  assert.equal(await page.locator('trainscope-widget > script').evaluate((script) => script.getClientRects().length), 0);
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings, []);
});

test('?bank= gives the iframe page the author\'s bank, drawn for the learner', async (t) => {
  const learner = 99;
  const { page, errors, warnings } = await open(t, {
    '/host/banks/draw2.json': json(bankWith({ order: 'fixed', draw: 2 })),
  }, 'iframe/index.html?sections=quiz&bank=/host/banks/draw2.json', { learner });
  const expected = selectItems(exampleIds, { order: 'fixed', draw: 2 }, learner);
  assert.deepEqual(await askedIds(page, 'body'), expected);
  assert.deepEqual(errors, []);
  assert.deepEqual(warnings, []);
});

test('a question on a field no figure draws (the KV cache) lands on the figure that holds it and says the answer is one part of it (issue 24, item 1)', async (t) => {
  // docs/quiz.md, "Show me": inference.* lands on memory / inference-total with answer_drawn false.
  const kvItem = {
    id: 'kv-cache-size', takeaway: example.takeaways[0].id, kind: 'numeric',
    prompt: 'How much memory does the KV cache take when this model runs? Give a unit.',
    scenario: { model: { preset: 'llama3-70b' } },
    answer: { path: 'inference.kv_cache', unit: 'GB', tolerance: 0.05 },
    explanation: 'The KV cache takes {answer}.',
    simulation: { model: { preset: 'llama3-70b' } },
  };
  const bank = bankWith({ order: undefined, draw: undefined, pass_mark: undefined }, [kvItem]);
  const { page, errors } = await open(t, {
    '/host/kv.html': coursePage(`<trainscope-widget id="kv" sections="memory quiz"><script type="application/json">${JSON.stringify(bank)}</script></trainscope-widget>`),
  }, 'host/kv.html');
  assert.deepEqual(await askedIds(page, '#kv'), ['kv-cache-size']);
  const item = page.locator('#kv li.ts-quiz-item');
  await item.getByRole('button', { name: 'Show solution' }).click();
  await item.getByRole('button', { name: 'Show me in the simulation' }).click();
  const marked = page.locator('#kv .ts-showme-target');
  await marked.waitFor({ timeout: 10000 });
  assert.equal(await marked.getAttribute('data-figure'), 'inference-total');
  assert.equal(await page.locator('#kv .ts-showme-back span').textContent(), 'The answer to question 1 is one part of the highlighted figure.');
  assert.deepEqual(errors, []);
});

test('a bank that is not there names itself; the built-in questions run instead', async (t) => {
  const { page, errors, warnings, requests } = await open(t, {
    '/host/course.html': coursePage('<trainscope-widget id="figures" sections="time" bank="never.json"></trainscope-widget>'
      + '<trainscope-widget id="lost" sections="quiz" bank="missing.json"></trainscope-widget>'
      + '<trainscope-widget id="garbled" sections="quiz" bank="garbled.json"></trainscope-widget>'),
    '/host/garbled.json': { type: 'application/json', body: '{"version": 1, "items": [' },
  }, 'host/course.html');
  assert.deepEqual(await askedIds(page, '#lost'), builtInLesson.map((item) => item.id));
  assert.equal(await page.locator('#lost .ts-quiz-bank-problem').textContent(),
    'The question bank “missing.json” could not be loaded (HTTP 404), so the built-in questions are shown instead.');
  await page.locator('#garbled').scrollIntoViewIfNeeded();
  assert.equal((await askedIds(page, '#garbled')).length, builtInLesson.length);
  assert.match(await page.locator('#garbled .ts-quiz-bank-problem').textContent(), /^The question bank “garbled\.json” is not valid JSON \(.+\), so the built-in questions are shown instead\.$/);
  assert.ok(warnings.some((line) => line.includes('“missing.json” could not be loaded (HTTP 404)')), warnings.join('\n'));
  await page.locator('#lost .ts-quiz-notice').screenshot({ path: join(artifactsDir, 'author-bank-404.png') });
  // A widget without its quiz fetches no bank.
  await page.locator('#figures [data-ts-ready]').waitFor({ timeout: 20000 });
  assert.equal(requests.filter((url) => url.endsWith('/never.json')).length, 0);
  // The 404 itself is the browser's console error for the failed request; nothing else.
  assert.deepEqual(errors.filter((line) => !/404/.test(line)), []);
});

test('the bank\'s pass mark decides `passed` in the score event; the host\'s pass-mark wins over it', async (t) => {
  // Two questions, the single choice first: one right answer is half the points.
  const bank = bankWith({ order: 'fixed', draw: undefined, pass_mark: 0.5 }, [example.items[1], example.items[2]]);
  const { page, errors } = await open(t, {
    '/host/course.html': coursePage('<trainscope-widget id="bank-mark" sections="quiz" bank="two.json"></trainscope-widget>'
      + '<trainscope-widget id="host-mark" sections="quiz" bank="two.json" pass-mark="0.9"></trainscope-widget>'),
    '/host/two.json': json(bank),
  }, 'host/course.html', { viewport: { width: 1100, height: 3000 } });
  for (const id of ['bank-mark', 'host-mark']) {
    assert.deepEqual(await askedIds(page, `#${id}`), ['more-gpus-same-hours', 'utilization-meaning']);
    await page.locator(`#${id}`).evaluate((element) => {
      element.addEventListener('trainscope-score', (event) => { element.dataset.lastScore = JSON.stringify(event.detail); });
    });
    await page.locator(`#${id} li[data-item-id="more-gpus-same-hours"] input[value="same"]`).check();
    await page.locator(`#${id} li[data-item-id="more-gpus-same-hours"] [data-action="check"]`).click();
    await page.waitForFunction((selector) => document.querySelector(selector).dataset.lastScore, `#${id}`);
  }
  const detail = async (id) => JSON.parse(await page.locator(`#${id}`).getAttribute('data-last-score'));
  // An author's bank without sets is all lesson questions: the score covers them.
  assert.deepEqual(withoutTakeaways(await detail('bank-mark')), { score: 1, max: 2, scaled: 0.5, passed: true, completed: false, answered: 1, right: 1, set: 'lesson' });
  assert.equal((await detail('host-mark')).passed, null, 'at 90% one of two is not a pass yet');
  assert.deepEqual(errors, []);
});

test('the notice reads well at 320 and 1280 px, light and dark', async (t) => {
  for (const [width, colorScheme] of [[320, 'light'], [320, 'dark'], [1280, 'light'], [1280, 'dark']]) {
    const { page } = await open(t, {
      '/host/course.html': coursePage('<trainscope-widget id="unit" sections="quiz" bank="banks/unit-3.json"></trainscope-widget>'),
      '/host/banks/unit-3.json': json(brokenBank),
    }, 'host/course.html', { viewport: { width, height: 1000 }, colorScheme });
    await askedIds(page, '#unit');
    await page.locator('#unit .ts-quiz-notice-details summary').click();
    const overflow = await page.locator('#unit .ts-quiz-notice').evaluate((element) => element.scrollWidth - element.clientWidth);
    assert.ok(overflow <= 1, `the notice fits at ${width} px (overflow ${overflow})`);
    await page.locator('#unit .ts-quiz-root').screenshot({ path: join(artifactsDir, `author-bank-${width}-${colorScheme}.png`) });
  }
});

test('built in with --bank: the offline file asks the author\'s questions, and the SCORM package reports the bank\'s pass mark to the LMS', async (t) => {
  // The single choice first; one right and one wrong answer complete the quiz at half the points.
  const bank = bankWith({ order: 'fixed', draw: undefined, pass_mark: 0.5 }, [example.items[1], example.items[2]]);
  const out = mkdtempSync(join(tmpdir(), 'trainscope-author-build-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const bankFile = join(out, 'two.json');
  writeFileSync(bankFile, JSON.stringify(bank));
  execFileSync(process.execPath, [join(repoRoot, 'web', 'build.mjs'), '--bank', bankFile], {
    env: { ...process.env, TRAINSCOPE_DIST_DIR: join(out, 'dist'), TRAINSCOPE_WASM_DIR: process.env.TRAINSCOPE_WASM_DIR ?? join(repoRoot, 'build', 'wasm') },
    stdio: 'pipe',
  });

  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  t.after(() => context.close());
  const offline = await context.newPage();
  await offline.goto(pathToFileURL(join(out, 'dist', 'trainscope.html')).href);
  await offline.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  await offline.locator('[data-ts-section="quiz"]').scrollIntoViewIfNeeded();
  assert.deepEqual(await askedIds(offline, 'body'), ['more-gpus-same-hours', 'utilization-meaning']);

  execFileSync('unzip', ['-q', join(out, 'dist', 'trainscope-scorm12.zip'), '-d', join(out, 'sco')]);
  const fixture = (name) => readFileSync(join(repoRoot, 'tests', 'browser', 'fixtures-ship', name), 'utf8');
  const served = await serveDirectory(join(out, 'dist'), 0, { extra: {
    '/lms/index.html': { type: 'text/html; charset=utf-8', body: fixture('scorm-again-lms.html') },
    '/lms/scorm-again-lms.js': { type: 'text/javascript', body: fixture('scorm-again-lms.js') },
    '/lms/scorm12.js': { type: 'text/javascript', body: readFileSync(join(repoRoot, 'node_modules', 'scorm-again', 'dist', 'scorm12.js')) },
    '/sco/index.html': { type: 'text/html; charset=utf-8', body: readFileSync(join(out, 'sco', 'index.html')) },
  } });
  closeServerAfter(t, served.server);
  const lms = await context.newPage();
  await lms.goto(`${served.url}lms/index.html`);
  // No mastery score from the LMS: the bank's pass mark is the one that counts.
  await lms.evaluate(() => window.launch({}));
  const sco = lms.frameLocator('#sco');
  await sco.locator('[data-ts-ready]').waitFor({ timeout: 20000 });
  await sco.locator('[data-ts-section="quiz"]').scrollIntoViewIfNeeded();
  await sco.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  await sco.locator('.ts-quiz-mode').click();
  await sco.locator('li[data-item-id="more-gpus-same-hours"] input[value="same"]').check();
  await sco.locator('li[data-item-id="more-gpus-same-hours"] [data-action="check"]').click();
  await sco.locator('li[data-item-id="utilization-meaning"] input[value="tokens"]').check();
  await sco.locator('li[data-item-id="utilization-meaning"] [data-action="check"]').click();
  await lms.waitForFunction(() => window.lmsRecord.core.lesson_status !== 'incomplete', null, { timeout: 10000 });
  const record = await lms.evaluate(() => window.lmsRecord.core);
  assert.equal(record.score.raw, '50');
  assert.equal(record.lesson_status, 'passed', 'at the bank\'s pass mark of 50%: passed, not merely completed');
});
