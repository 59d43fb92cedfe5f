// The page in the widget's language (docs/i18n.md), in Debian's Chromium: <trainscope-widget
// lang="de"> shows the German catalogue's headings and the engine's German numbers; ?lang=es on
// the offline file, opened from disk, is Spanish with its packs inline; a German and an English
// widget on one page each speak their own language; a language without words, or a pack that
// cannot be loaded, gives English and a console warning naming it; an English page asks for no pack.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { distDir, openDeeperParts, recordConsole, repoRoot } from './harness.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const docs = readFileSync(join(repoRoot, 'docs', 'embedding.md'), 'utf8');
/** The element's documented strict CSP, plus what the language packs need (docs/embedding.md, "Language"). */
const ELEMENT_CSP = /runs under `(default-src[^`]+)`/.exec(docs)?.[1];
const PACK_CSP = `${ELEMENT_CSP}; connect-src 'self'`;
const catalogue = (language, name = 'page') => JSON.parse(readFileSync(join(repoRoot, 'i18n', language, `${name}.json`), 'utf8'));
const german = catalogue('de');
const spanish = catalogue('es');
/** The English the code writes (web/src/sections/memory.ts). */
const english = { 'lesson.run.heading': 'To run it, to train it' };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

/** A course page (html lang `pageLanguage`) around `body`, with the element's script. */
function coursePage(body, pageLanguage = 'en') {
  return `<!doctype html><html lang="${pageLanguage}"><head><meta charset="utf-8"><title>Course page</title>
<script src="../embed/trainscope-widget.js" defer></script></head><body><h1>Week 3</h1>${body}</body></html>`;
}

/** Serves dist/ and `pages` under /host/ (with the strict CSP); records warnings, errors and requests. */
async function open(t, address, { pages = {}, viewport = { width: 1100, height: 900 }, route, policy = PACK_CSP } = {}) {
  const extra = Object.fromEntries(Object.entries(pages).map(([name, page]) => [`/host/${name}.html`, { type: 'text/html; charset=utf-8', body: page }]));
  // Course pages get the element's strict policy as a header; dist's own pages carry theirs in a meta element.
  const served = await serveDirectory(distDir, 0, { headers: Object.keys(pages).length > 0 ? { 'content-security-policy': policy } : {}, extra });
  const context = await browser.newContext({ viewport });
  t.after(async () => {
    await context.close();
    await new Promise((resolve) => served.server.close(resolve));
  });
  const page = await context.newPage();
  const seen = { ...recordConsole(page), requests: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  if (route) await page.route(route.pattern, route.handler);
  await page.goto(address.startsWith('file:') ? address : `${served.url}${address}`);
  return { page, seen };
}

/** Waits until the element `selector` has mounted its widget. */
async function mounted(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await page.waitForFunction((css) => document.querySelector(css)?.shadowRoot?.querySelector('[data-ts-ready]') !== null, selector, { timeout: 20000 });
}

/** The widget's section titles (inside the element's shadow root, or the page). */
function titles(page, within) {
  return page.evaluate((css) => {
    const root = css ? document.querySelector(css).shadowRoot : document;
    return [...root.querySelectorAll('.ts-section-title')].map((heading) => heading.textContent);
  }, within);
}

/** A figure's text and raw value, and the engine's writing of that value in `language` (when the engine has setLanguage). */
function figureWithEngine(page, within, figure, kind) {
  return page.evaluate(({ css, name, figureKind }) => {
    const host = css ? document.querySelector(css) : null;
    const root = host ? host.shadowRoot : document;
    const element = root.querySelector(`[data-figure="${name}"]`);
    const handle = host ? host.widget : window.trainscope;
    const module = handle.engine.module;
    const value = Number(element.getAttribute('data-value'));
    return { text: element.textContent, value, engine: module.formatQuantity(value, figureKind, 0), speaks: typeof module.setLanguage === 'function' };
  }, { css: within, name: figure, figureKind: kind });
}

test('<trainscope-widget lang="de"> speaks German: the catalogue’s headings, the engine’s numbers, lang and dir on its root', async (t) => {
  const { page, seen } = await open(t, 'host/de.html', {
    pages: { de: coursePage('<trainscope-widget id="de" sections="memory time"></trainscope-widget>'.replace('id="de"', 'id="de" lang="de"')) },
  });
  await mounted(page, '#de');
  const shown = await titles(page, '#de');
  assert.equal(shown[0], `1. ${german['lesson.run.heading']}`, 'the first section is headed in German, numbered from 1');
  assert.notEqual(german['lesson.run.heading'], english['lesson.run.heading']);
  const root = await page.evaluate(() => {
    const element = document.querySelector('#de').shadowRoot.querySelector('.ts-root');
    return { lang: element.getAttribute('lang'), dir: element.getAttribute('dir'), kicker: element.textContent.includes('Running vs training') };
  });
  assert.deepEqual(root, { lang: 'de', dir: 'ltr', kicker: false }, 'German on the root, left to right, and no English heading left');
  // The pack came from beside the element's script, same origin.
  assert.ok(seen.requests.some((url) => url.endsWith('/embed/i18n/de.json')), 'the German pack is fetched beside trainscope-widget.js');
  const total = await figureWithEngine(page, '#de', 'training-total', 'bytes');
  assert.equal(total.text, total.engine, 'the figure is the engine’s writing of its value, in the widget’s view');
  assert.ok(total.speaks, 'the engine has setLanguage');
  // Llama 3 70B trains in 1.22 TB: in German, 1,22 TB.
  assert.match(total.text, /^\d+,\d+ TB$/, `a German figure with a decimal comma: ${total.text}`);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.warnings, []);
});

test('?lang=es on the offline file, opened from disk: Spanish from the inline packs, nothing fetched', async (t) => {
  const { page, seen } = await open(t, `${pathToFileURL(join(distDir, 'trainscope.html')).href}?lang=es`);
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  const shown = await titles(page, null);
  assert.equal(shown[0], `1. ${spanish['lesson.run.heading']}`);
  const facts = await page.evaluate(() => ({
    root: document.querySelector('.ts-root').getAttribute('lang'),
    html: document.documentElement.lang,
    title: document.title,
    kicker: document.querySelector('.ts-kicker').textContent,
  }));
  assert.deepEqual(facts, { root: 'es', html: 'es', title: spanish['page.document_title'], kicker: spanish['page.kicker'] });
  assert.deepEqual(seen.requests.filter((url) => !url.startsWith('file:')), [], 'the offline file fetches nothing, packs included');
  const total = await figureWithEngine(page, null, 'training-total', 'bytes');
  assert.equal(total.text, total.engine);
  assert.deepEqual(seen.errors, []);
});

test('two widgets on one page, German and English, each in its own language and numbers', async (t) => {
  const { page, seen } = await open(t, 'host/two.html', {
    pages: { two: coursePage('<trainscope-widget id="de" lang="de-AT" sections="memory"></trainscope-widget><div lang="en"><trainscope-widget id="en" sections="memory"></trainscope-widget></div>', 'de') },
  });
  await mounted(page, '#de');
  await mounted(page, '#en');
  assert.equal((await titles(page, '#de'))[0], `1. ${german['lesson.run.heading']}`, 'de-AT is German');
  assert.equal((await titles(page, '#en'))[0], `1. ${english['lesson.run.heading']}`, 'the nearest lang (en) wins over the page’s de');
  // Each widget's figures are its engine view's writing: the English one after the German one has drawn.
  const de = await figureWithEngine(page, '#de', 'training-total', 'bytes');
  const en = await figureWithEngine(page, '#en', 'training-total', 'bytes');
  assert.equal(de.value, en.value, 'the same scenario');
  assert.equal(de.text, de.engine);
  assert.equal(en.text, en.engine);
  assert.notEqual(de.text, en.text, `German and English write ${de.value} differently: ${de.text} / ${en.text}`);
  assert.match(en.text, /^[\d.]+ [kMGT]?B$/, 'English keeps its decimal point');
  // Moving the English widget's slider keeps it English (the engine is switched back for each call).
  await page.evaluate(() => document.querySelector('#en').widget.setScenario({ model: { preset: 'llama3-405b' } }));
  await page.evaluate(() => document.querySelector('#de').widget.setScenario({ model: { preset: 'llama3-405b' } }));
  const en2 = await figureWithEngine(page, '#en', 'training-total', 'bytes');
  const de2 = await figureWithEngine(page, '#de', 'training-total', 'bytes');
  assert.equal(en2.text, en2.engine);
  assert.equal(de2.text, de2.engine);
  assert.deepEqual(seen.errors, []);
});

test('a language without words is English, with a console warning naming it', async (t) => {
  const { page, seen } = await open(t, 'host/fr.html', {
    pages: { fr: coursePage('<trainscope-widget id="fr" lang="fr" sections="memory"></trainscope-widget>') },
  });
  await mounted(page, '#fr');
  assert.equal((await titles(page, '#fr'))[0], `1. ${english['lesson.run.heading']}`);
  assert.equal(await page.evaluate(() => document.querySelector('#fr').shadowRoot.querySelector('.ts-root').getAttribute('lang')), 'en');
  assert.ok(seen.warnings.some((warning) => /“fr”/.test(warning) && /English/.test(warning)), `a warning names fr: ${seen.warnings.join(' | ')}`);
  assert.ok(!seen.requests.some((url) => url.includes('/i18n/')), 'no pack is asked for');
});

test('a pack that cannot be loaded gives English and a warning naming the language; an English page asks for no pack', async (t) => {
  const { page, seen } = await open(t, 'index.html?lang=de', {
    route: { pattern: '**/i18n/de.json', handler: (route) => route.fulfill({ status: 404, body: 'not found' }) },
  });
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  assert.equal((await titles(page, null))[0], `1. ${english['lesson.run.heading']}`);
  assert.ok(seen.warnings.some((warning) => /German \(de\) language pack/.test(warning)), `the warning names German: ${seen.warnings.join(' | ')}`);

  const plain = await open(t, 'index.html');
  await plain.page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  assert.equal((await titles(plain.page, null))[0], `1. ${english['lesson.run.heading']}`);
  assert.ok(!plain.seen.requests.some((url) => url.includes('/i18n/')), 'the English page downloads no pack');
  assert.deepEqual(plain.seen.warnings, []);
});

test('a German element whose page’s policy blocks its language pack says so in the widget, not only in the console (issue 24, item 4)', async (t) => {
  // The element's own policy without connect-src 'self' (docs/embedding.md): the pack's fetch is refused.
  const { page, seen } = await open(t, 'host/blocked.html', {
    policy: ELEMENT_CSP,
    pages: { blocked: coursePage('<trainscope-widget id="de" lang="de" sections="memory"></trainscope-widget>', 'de') },
  });
  await mounted(page, '#de');
  const notice = await page.evaluate(() => {
    const element = document.querySelector('#de').shadowRoot.querySelector('.ts-notice');
    return element && !element.hidden ? element.textContent : null;
  });
  assert.ok(notice, 'a notice shows in the widget');
  assert.match(notice, /German words could not be loaded/);
  assert.match(notice, /connect-src 'self'/, 'the notice says what the policy needs');
  assert.ok(seen.warnings.some((warning) => /German \(de\) language pack/.test(warning)), 'the console says it too');
  // The host fixing an attribute later (setProblems) keeps the language's line.
  await page.evaluate(() => document.querySelector('#de').setAttribute('theme', 'dark'));
  await page.waitForTimeout(200);
  const after = await page.evaluate(() => document.querySelector('#de').shadowRoot.querySelector('.ts-notice').textContent);
  assert.match(after, /German words could not be loaded/);
});

test('the notes’ label is in the widget’s language, not CSS-generated English (issue 24, item 17)', async (t) => {
  const { page } = await open(t, 'index.html?lang=de');
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  await page.evaluate(() => window.trainscope.setScenario({ model: { preset: 'llama3-405b' } }));
  await page.waitForSelector('.ts-notes li');
  const notes = await page.evaluate(() => [...document.querySelectorAll('.ts-notes li')].map((item) => ({
    text: item.textContent, generated: getComputedStyle(item, '::before').content,
  })));
  for (const note of notes) {
    assert.ok(note.text.startsWith(`${german['page.note_label']} `), `“${note.text}” starts with ${german['page.note_label']}`);
    assert.ok(note.generated === 'none' || note.generated === 'normal', `no text from CSS (${note.generated})`);
  }
});

test('?lang=de on the served page: German from dist/i18n/de.json, the page’s lang and title too', async (t) => {
  const { page, seen } = await open(t, 'index.html?lang=de', { viewport: { width: 320, height: 800 } });
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  assert.equal((await titles(page, null))[0], `1. ${german['lesson.run.heading']}`);
  assert.equal(await page.evaluate(() => document.title), german['page.document_title']);
  // The quiz speaks the widget's language too: its own words, from the pack.
  const quiz = catalogue('de', 'page-quiz');
  await page.locator('[data-ts-section="quiz"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-ts-quiz-ready]', { timeout: 20000 });
  const quizText = await page.evaluate(() => document.querySelector('[data-ts-quiz-ready]').textContent);
  assert.ok(quizText.includes(quiz['quizui.heading']), `the quiz heading in German (${quiz['quizui.heading']})`);
  assert.ok(seen.requests.some((url) => /\/i18n\/de\.json$/.test(url)));
  // At 320 px the longer German words must not push the page sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling at 320 px (${overflow} px too wide)`);
  assert.deepEqual(seen.errors, []);
});

test('the built-in bank’s German comes with the pack: the page asks its questions in German', async (t) => {
  const { page, seen } = await open(t, 'index.html?lang=de');
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  await page.locator('[data-ts-section="quiz"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-ts-quiz-ready]', { timeout: 20000 });
  const quizText = await page.evaluate(() => document.querySelector('[data-ts-quiz-ready]').textContent);
  const bank = JSON.parse(readFileSync(join(repoRoot, 'i18n', 'de', 'bank.json'), 'utf8'));
  const prompts = Object.values(bank.items).map((item) => item.prompt).filter(Boolean).map((prompt) => prompt.split('{')[0].slice(0, 30));
  assert.ok(prompts.some((prompt) => quizText.includes(prompt)), 'a question of the built-in bank in its German translation');
  assert.deepEqual(seen.warnings, []);
});

test('node web/build.mjs --lang de: the offline file and the SCORM package open in German; ?lang=en still chooses English', async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'trainscope-lang-'));
  execFileSync(process.execPath, [join(repoRoot, 'web', 'build.mjs'), '--lang', 'de'], {
    env: { ...process.env, TRAINSCOPE_DIST_DIR: join(out, 'dist'), TRAINSCOPE_WASM_DIR: process.env.TRAINSCOPE_WASM_DIR ?? join(repoRoot, 'build', 'wasm') },
    stdio: 'pipe',
  });
  execFileSync('unzip', ['-q', join(out, 'dist', 'trainscope-scorm12.zip'), '-d', join(out, 'sco')]);
  const sco = readFileSync(join(out, 'sco', 'index.html'), 'utf8');
  assert.match(sco, /<html lang="de">/, 'the SCO opens in German');
  assert.match(sco, /<script type="application\/json" id="trainscope-packs">/, 'with the packs inline');
  assert.match(readFileSync(join(out, 'dist', 'index.html'), 'utf8'), /<html lang="en">/, 'the served page keeps English');

  const offline = pathToFileURL(join(out, 'dist', 'trainscope.html')).href;
  const german = await open(t, offline);
  await german.page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  assert.equal((await titles(german.page, null))[0], `1. ${catalogue('de')['lesson.run.heading']}`);
  const chosen = await open(t, `${offline}?lang=en`);
  await chosen.page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  assert.equal((await titles(chosen.page, null))[0], `1. ${english['lesson.run.heading']}`);
  assert.deepEqual([...german.seen.errors, ...chosen.seen.errors], []);
});

test('node web/build.mjs --lang xx stops with a message naming the languages', () => {
  const out = mkdtempSync(join(tmpdir(), 'trainscope-lang-'));
  assert.throws(() => execFileSync(process.execPath, [join(repoRoot, 'web', 'build.mjs'), '--lang', 'xx'], {
    env: { ...process.env, TRAINSCOPE_DIST_DIR: join(out, 'dist'), TRAINSCOPE_WASM_DIR: process.env.TRAINSCOPE_WASM_DIR ?? join(repoRoot, 'build', 'wasm') },
    stdio: 'pipe',
  }), (error) => error.status === 64 && /--lang must be one of en, de, es/.test(String(error.stderr)));
});

test('a German widget lists the published runs by German names and notes; their sources stay as published (issue 23)', async (t) => {
  const { page, seen } = await open(t, 'index.html?lang=de');
  await page.waitForSelector('[data-ts-ready]', { timeout: 20000 });
  await openDeeperParts(page);
  // Scrolled without Playwright's stability wait: the pending section is replaced by the built one
  // while the scroll runs (a fresh clone's run found the placeholder detached).
  await page.evaluate(() => document.querySelector('[data-ts-section="sharding"]').scrollIntoView());
  const deepseek = page.locator('.ts-run[data-run="deepseek-v3/pretraining"]');
  await deepseek.waitFor({ timeout: 20000 });
  const names = await page.locator('.ts-run').allTextContents();
  const engineWords = catalogue('de', 'engine');
  assert.ok(names.some((name) => name.endsWith(': Vortraining auf 2.048 H800')), names.join(' | '));
  assert.ok(names.every((name) => !/Pre-training|H100s|H800s/.test(name)), `no English run name: ${names.join(' | ')}`);
  await deepseek.click();
  const source = await page.locator('.ts-run-source').textContent();
  assert.ok(source.includes(engineWords['presets.run.deepseek_v3.pretraining_note'].split(' {memory}')[0].slice(0, 60)), source);
  assert.ok(source.includes('DeepSeek-V3 Technical Report 2024, §3.1 (2,048 H800 GPUs)'), `the source as published: ${source}`);
  assert.ok(!source.includes('which this engine'), source);
  assert.deepEqual(seen.errors, []);
});
