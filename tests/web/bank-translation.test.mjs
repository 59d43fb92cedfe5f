// The built-in bank's German and Spanish (i18n/<lang>/bank.json) translate every text of
// web/quiz/bank.json and keep its placeholders; the checker names a broken copy's item and field.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkBankTranslation } from '../../tools/i18n/check-bank-translation.mjs';

const read = (path) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const bank = read('web/quiz/bank.json');

for (const language of ['de', 'es']) {
  test(`the built-in bank is fully translated into ${language}`, () => {
    assert.deepEqual(checkBankTranslation(bank, read(`i18n/${language}/bank.json`)), []);
  });
}

test('a dropped placeholder and a missing feedback are named by item and field', () => {
  const broken = read('i18n/de/bank.json');
  const numeric = bank.items.find((item) => item.kind === 'numeric');
  broken.items[numeric.id].explanation = broken.items[numeric.id].explanation.replaceAll('{answer}', '');
  const choice = bank.items.find((item) => item.options);
  delete broken.items[choice.id].options[choice.options[0].id].feedback;
  const problems = checkBankTranslation(bank, broken);
  assert.equal(problems.length, 2, JSON.stringify(problems));
  assert.ok(
    problems.some((p) => p.item === numeric.id && /explanation/.test(p.field) && /\{answer\}/.test(p.message)),
    JSON.stringify(problems),
  );
  assert.ok(
    problems.some((p) => p.item === choice.id && p.field.includes(choice.options[0].id) && p.message === 'missing'),
    JSON.stringify(problems),
  );
});
