// The quiz interface in other languages (docs/i18n.md, "The quiz bank"; web/src/quiz/): the
// built-in bank's translations, kept apart in the language pack, land on the items and takeaways
// they belong to before the engine sees the bank; an author's bank is asked as written; progress
// is kept under one key whatever the language; and every sentence of the interface has its German
// and Spanish translation, with the English's placeholders.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildQuizUnits, readBank, repoRoot } from './quiz-build.mjs';
import { quizSentences } from './quiz-sentences.mjs';

const units = await buildQuizUnits('i18n');
const { withBankTranslations, isAuthorBank, prepareBank, describeProblem } = await import(units.bank);
const { describeLoadProblem, readBankText, INLINE_BANK_NAME } = await import(units.source);
const bank = readBank();
const clone = (value) => JSON.parse(JSON.stringify(value));

// Two of the built-in bank's items and a takeaway, translated as i18n/de/bank.json would carry them.
const [choiceItem, numericItem] = bank.items;
const germanChoice = {
  prompt: 'Sie führen ein Modell aus …',
  explanation: 'Zum Ausführen braucht es die Gewichte …',
  options: Object.fromEntries(
    choiceItem.options.map((option) => [option.id, { text: `de ${option.text}`, feedback: `de ${option.feedback}` }]),
  ),
};
const germanNumeric = { prompt: 'Wie viele Bytes …', explanation: 'Beim Training …' };
const germanTakeaway = 'Ausführen braucht etwa 2 Bytes pro Parameter, Training etwa 16.';
const german = {
  takeaways: { [bank.takeaways[0].id]: germanTakeaway, 'no-such-takeaway': 'verloren' },
  items: { [choiceItem.id]: germanChoice, [numericItem.id]: germanNumeric, 'no-such-item': { prompt: 'verloren' } },
};

test("each item's and takeaway's translation is put into that item and takeaway, under the language", () => {
  const translated = withBankTranslations(bank, 'de', german);
  assert.deepEqual(translated.items[0].translations, { de: germanChoice });
  assert.deepEqual(translated.items[1].translations, { de: germanNumeric });
  assert.deepEqual(translated.takeaways[0].translations, { de: germanTakeaway });
  // Items and takeaways without a translation are left exactly as they were.
  for (let index = 2; index < bank.items.length; index += 1) assert.deepEqual(translated.items[index], bank.items[index]);
  for (let index = 1; index < bank.takeaways.length; index += 1) assert.deepEqual(translated.takeaways[index], bank.takeaways[index]);
  // Ids the bank does not have go nowhere: nothing is added.
  assert.equal(translated.items.length, bank.items.length);
  assert.equal(translated.takeaways.length, bank.takeaways.length);
  assert.ok(!JSON.stringify(translated).includes('verloren'));
  // Every other field of the bank and of the translated entries is kept.
  const { translations: _ignored, ...choiceWithout } = translated.items[0];
  assert.deepEqual(choiceWithout, choiceItem);
  assert.equal(translated.version, bank.version);
});

test('the shared built-in bank is not changed: another widget in another language gets its own copy', () => {
  const before = clone(bank);
  const inGerman = withBankTranslations(bank, 'de', german);
  const inSpanish = withBankTranslations(bank, 'es', { items: { [choiceItem.id]: { prompt: 'Ejecutas un modelo …' } } });
  assert.deepEqual(bank, before);
  assert.deepEqual(Object.keys(inGerman.items[0].translations), ['de']);
  assert.deepEqual(Object.keys(inSpanish.items[0].translations), ['es']);
  assert.equal(inSpanish.items[1].translations, undefined);
});

test('a translation the entry already has for that language wins; other languages are kept beside the new one', () => {
  const own = clone(bank);
  own.items[0].translations = { de: { prompt: 'eigene' }, es: { prompt: 'propia' } };
  own.takeaways[0].translations = { es: 'propia' };
  const translated = withBankTranslations(own, 'de', german);
  assert.deepEqual(translated.items[0].translations, { de: { prompt: 'eigene' }, es: { prompt: 'propia' } });
  assert.deepEqual(translated.takeaways[0].translations, { es: 'propia', de: germanTakeaway });
});

test('translations of the wrong shape are not attached: a string for an item, an object or "" for a takeaway', () => {
  const translated = withBankTranslations(bank, 'de', {
    takeaways: { [bank.takeaways[0].id]: { text: 'falsch' }, [bank.takeaways[1].id]: '' },
    items: { [choiceItem.id]: 'falsch', [numericItem.id]: null },
  });
  assert.deepEqual(translated, bank);
});

test('the bank as JSON text is translated too; no translations, or unreadable text, leave the bank as given', () => {
  const text = JSON.stringify(bank);
  assert.deepEqual(withBankTranslations(text, 'de', german).items[1].translations, { de: germanNumeric });
  assert.equal(withBankTranslations(bank, 'de', undefined), bank);
  assert.equal(withBankTranslations(bank, 'de', null), bank);
  assert.equal(withBankTranslations('{"items": [', 'de', german), '{"items": [');
});

test("an author's bank is one named and loaded; the built-in bank, also standing in for a failed one, is not", () => {
  assert.equal(isAuthorBank({ bankName: 'unit-3.json' }), true);
  assert.equal(isAuthorBank({ bankName: INLINE_BANK_NAME, bankProblem: undefined }), true);
  assert.equal(isAuthorBank({ bankName: 'unit-3.json', bankProblem: 'The question bank “unit-3.json” is empty, …' }), false);
  assert.equal(isAuthorBank({}), false);
});

/** An engine that accepts every item and asks it as given: the page's own handling, alone. */
function standInEngine() {
  const asked = [];
  return {
    asked,
    quizValidateBank: (text) => {
      asked.push(JSON.parse(text));
      return JSON.stringify({ ok: true, errors: [], unusable: [], settings: null });
    },
    quizInstance: (itemJson) => {
      const item = JSON.parse(itemJson);
      return JSON.stringify({
        id: item.id,
        kind: item.kind,
        takeaway: item.takeaway,
        seed: 0,
        prompt: item.prompt,
        options: (item.options ?? []).map(({ id, text }) => ({ id, text })),
        errors: [],
      });
    },
    quizGrade: () => '{}',
    quizReadQuantity: () => '{}',
    formatCount: (value) => String(value),
    formatQuantity: (value) => String(value),
  };
}

test("the engine validates the bank with the translations in it, and the takeaways read in the widget's language", () => {
  const engine = standInEngine();
  const prepared = prepareBank(engine, withBankTranslations(bank, 'de', german), { language: 'de' });
  assert.deepEqual(engine.asked[0].items[0].translations, { de: germanChoice });
  assert.equal(JSON.parse(prepared.items[0].json).translations.de.prompt, germanChoice.prompt);
  assert.equal(prepared.takeaways[0].text, germanTakeaway);
  assert.equal(prepared.takeaways[1].text, bank.takeaways[1].text, "no translation: the bank's own words");
  // Asked in English, the same bank shows its own takeaways.
  assert.equal(
    prepareBank(standInEngine(), withBankTranslations(bank, 'de', german), { language: 'en' }).takeaways[0].text,
    bank.takeaways[0].text,
  );
});

test('saved progress is kept under the same key in every language', () => {
  const english = prepareBank(standInEngine(), bank);
  const inGerman = prepareBank(standInEngine(), withBankTranslations(bank, 'de', german), { language: 'de' });
  const inSpanish = prepareBank(
    standInEngine(),
    withBankTranslations(bank, 'es', { takeaways: { [bank.takeaways[0].id]: 'Ejecutar …' } }),
    { language: 'es' },
  );
  assert.equal(inGerman.bankId, english.bankId);
  assert.equal(inSpanish.bankId, english.bankId);
  assert.deepEqual(
    inGerman.items.map((item) => item.id),
    english.items.map((item) => item.id),
  );
});

const loudly = (key, english, values) => `${key}|${english.replace(/\{(\w+)\}/g, (_, name) => `<${values?.[name] ?? '?'}>`)}`;

test("the page's own problem lines and a failed bank's notice go through the translator, values filled", () => {
  assert.equal(
    describeProblem({ item: 'a', field: 'prompt', message: 'm' }, loudly),
    'quizui.problem.in_item_field|Question “<a>”, <prompt>: <m>',
  );
  assert.equal(describeProblem({ item: '', field: '', message: 'm' }, loudly), 'quizui.problem.in_bank|The bank: <m>');
  const missing = readBankText('', INLINE_BANK_NAME);
  assert.equal(missing.reason.kind, 'empty');
  // The name of a script child is words too, so it is translated as well.
  assert.equal(
    describeLoadProblem(missing.name, missing.reason, loudly),
    'quizui.bank_load.empty|The question bank “<quizui.bank.inline_name|the bank in the page>” is empty, so the built-in questions are shown instead.',
  );
  // In English the reason writes exactly the sentence the bank reader gave.
  assert.equal(describeLoadProblem(missing.name, missing.reason), missing.problem);
  const large = readBankText('x'.repeat(2_000_001), 'big.json');
  assert.equal(
    describeLoadProblem(large.name, large.reason, undefined, () => '2 MB'),
    large.problem,
  );
  assert.match(
    describeLoadProblem(large.name, large.reason, undefined, () => '2,0 MB (engine)'),
    /larger than 2,0 MB \(engine\),/,
  );
});

// ── The catalogues ─────────────────────────────────────────────────────────────────────────────
// Until the shared catalogue test (tools/i18n/extract.mjs) covers web/src/quiz/, this one does.

// Lines whose words are names (the widget's, a function's) or punctuation may read the same.
const sameInEveryLanguage = new Set(['quizui.console.load_problem', 'quizui.console.bank_problem', 'quizui.feedback.answers_separator']);
const placeholders = (text) => [...text.matchAll(/\{([a-zA-Z0-9_]+)\}/g)].map((match) => match[1]).sort();

for (const language of ['de', 'es']) {
  test(`every sentence of the quiz interface has its ${language} translation, with the same placeholders, and no other`, () => {
    const sentences = quizSentences();
    assert.ok(sentences.size > 60, `only ${sentences.size} sentences found`);
    const catalogue = JSON.parse(readFileSync(join(repoRoot, 'i18n', language, 'page-quiz.json'), 'utf8'));
    const missing = [...sentences.keys()].filter((key) => !Object.hasOwn(catalogue, key));
    assert.deepEqual(missing, [], `i18n/${language}/page-quiz.json misses these keys`);
    const stale = Object.keys(catalogue).filter((key) => !sentences.has(key));
    assert.deepEqual(stale, [], `i18n/${language}/page-quiz.json keeps keys the code no longer uses`);
    for (const [key, english] of sentences) {
      assert.equal(typeof catalogue[key], 'string', key);
      assert.deepEqual(placeholders(catalogue[key]), placeholders(english), `${key}: the placeholders of "${catalogue[key]}"`);
      if (!sameInEveryLanguage.has(key)) assert.notEqual(catalogue[key], english, `${key} is not translated`);
    }
  });
}
