// The quiz interface in German and Spanish (docs/i18n.md), in Debian's Chromium, through the quiz
// harness (tests/browser/fixtures/quiz-harness, ?lang=): a question answered wrong, its solution,
// a typed answer, the results. Every sentence of the interface on the way is the catalogue's, and
// none of the interface's English is left; the bank's own words (English: the harness gives no
// bank translations) and the engine's messages are not the interface's and are not looked at.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { buildHarness } from './fixtures/quiz-harness/build.mjs';
import { repoRoot } from '../web/quiz-build.mjs';
import { quizSentences } from '../web/quiz-sentences.mjs';
import { openPage } from './harness.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const bank = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));
const english = quizSentences();

const harnessDir = await buildHarness();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
const { server, url } = await serveDirectory(harnessDir, 0);
test.after(async () => {
  await browser.close();
  await new Promise((resolve) => server.close(resolve));
});

/** The pieces of a sentence between its placeholders: what must show, whatever the values. */
const fixedParts = (sentence) => sentence.split(/\{[a-zA-Z0-9_]+\}/).map((part) => part.trim()).filter((part) => part.length >= 4);

/** The bank's text and the engine's messages, taken out of the page's text before it is judged. */
function interfaceText(text, extra) {
  let left = text;
  const bankWords = [];
  for (const item of bank.items) {
    bankWords.push(item.prompt, item.explanation ?? '');
    for (const option of item.options ?? []) bankWords.push(option.text, option.feedback ?? '');
  }
  for (const takeaway of bank.takeaways) bankWords.push(takeaway.text);
  for (const words of [...bankWords, ...extra].filter(Boolean).sort((a, b) => b.length - a.length)) left = left.split(words).join(' ');
  return left;
}

for (const language of ['de', 'es']) {
  test(`in ${language === 'de' ? 'German' : 'Spanish'}, the quiz's own words are the catalogue's and none of its English is left`, async () => {
    const catalogue = JSON.parse(readFileSync(join(repoRoot, 'i18n', language, 'page-quiz.json'), 'utf8'));
    const choice = bank.items.find((item) => item.kind === 'single_choice');
    const numeric = bank.items.find((item) => item.kind === 'numeric');
    const { page, context, problems } = await openPage(browser, `${url}?lang=${language}&passMark=0.7&items=${choice.id},${numeric.id}`, {
      viewport: { width: 1100, height: 900 }, reducedMotion: 'reduce', readySelector: 'body[data-quiz-ready]', readyTimeout: 60000,
    });
    const root = page.locator('.ts-quiz-root');
    const seen = [];
    const engineMessages = [];
    const look = async () => seen.push(await root.innerText());

    await look();
    const wrong = choice.options.find((option) => !option.correct);
    const first = page.locator(`.ts-quiz-item[data-item-id="${choice.id}"]`);
    await first.locator(`input[value="${wrong.id}"]`).check();
    await first.locator('[data-action="check"]').click();
    await first.locator('.ts-quiz-feedback').waitFor();
    engineMessages.push(...await first.locator('.ts-quiz-message').allInnerTexts());
    await look();
    await first.locator('.ts-quiz-feedback [data-action="reveal"]').click();
    await look();

    await page.locator('.ts-quiz-nav [data-action="next"]').click();
    const second = page.locator(`.ts-quiz-item[data-item-id="${numeric.id}"]`);
    const expected = await page.evaluate((raw) => JSON.parse(window.quizHarness.engine.quizInstance(JSON.stringify(raw), 0)).expected_display, numeric);
    await second.locator('input.ts-quiz-text-input').fill(expected);
    await second.locator('.ts-quiz-read-as').filter({ hasText: /\S/ }).waitFor();
    await look();
    await second.locator('[data-action="check"]').click();
    await second.locator('.ts-quiz-feedback').waitFor();
    engineMessages.push(...await second.locator('.ts-quiz-message').allInnerTexts());
    // The solution's "Why" is the bank's explanation with the engine's numbers filled in.
    const whyLabel = catalogue['quizui.feedback.why'];
    engineMessages.push(...(await page.locator('.ts-quiz-explanation').allInnerTexts()).map((why) => why.trim().slice(whyLabel.length).trim()));
    await look();
    await page.locator('.ts-quiz-nav [data-action="results"]:visible').last().click();
    await page.locator('.ts-quiz-summary').waitFor();
    await look();

    const shown = interfaceText(seen.join('\n'), engineMessages);
    // What this walk shows of the interface, in the language's words (fixed parts around the values).
    // The intro with a pass mark, for items that draw no numbers (the first choice and numeric items: issue 24, item 13).
    for (const key of ['quizui.heading', 'quizui.intro_pass_mark_same_numbers', 'quizui.item.number', 'quizui.hint.single_choice', 'quizui.action.check',
      'quizui.option.chosen_wrong', 'quizui.feedback.incorrect', 'quizui.feedback.solution', 'quizui.feedback.right_answer', 'quizui.feedback.why',
      'quizui.answer.label', 'quizui.answer.read_as', 'quizui.feedback.correct', 'quizui.summary.title', 'quizui.summary.questions_right',
      'quizui.summary.points', 'quizui.summary.pass_not_met', 'quizui.summary.restart', 'quizui.progress.one']) {
      for (const part of fixedParts(catalogue[key])) assert.ok(shown.includes(part), `${key}: "${part}" is shown\n${shown}`);
    }
    // No sentence of the interface is left in English.
    for (const [key, sentence] of english) {
      if (catalogue[key] === sentence) continue;
      for (const part of fixedParts(sentence).filter((piece) => piece.length >= 8 && !catalogue[key].includes(piece))) {
        assert.ok(!shown.includes(part), `${key}: English "${part}" is still shown\n${shown}`);
      }
    }
    // The engine's numbers: the score line's counts are written by the engine, not as the page would.
    assert.match(shown, language === 'de' ? /1 von 2/ : /1 de 2/);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
