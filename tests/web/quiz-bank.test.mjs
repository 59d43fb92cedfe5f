// Reading a question bank through the real wasm engine (web/src/quiz/bank.ts): the shipped bank
// is asked whole; a broken item is left out with the engine's precise message and the rest kept.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildQuizUnits, loadEngine, readBank } from './quiz-build.mjs';

const units = await buildQuizUnits('bank');
const { prepareBank, describeProblem, shortHash } = await import(units.bank);
const { initialProgress, recordAnswer, serializeProgress } = await import(units.state);
const engine = await loadEngine();
const skip = engine ? false : 'build/wasm is missing: bash scripts/build.sh';
const bank = readBank();
const clone = (value) => JSON.parse(JSON.stringify(value));

test('the shipped bank is usable whole: every item kept, no problems', { skip }, () => {
  const prepared = prepareBank(engine, bank);
  assert.deepEqual(prepared.problems, []);
  assert.deepEqual(prepared.skipped, []);
  assert.equal(prepared.items.length, bank.items.length);
  assert.deepEqual(
    prepared.items.map((item) => item.id),
    bank.items.map((item) => item.id),
  );
  assert.deepEqual(prepared.takeaways, bank.takeaways);
  for (const item of prepared.items) {
    assert.equal(item.numeric, item.kind === 'numeric' || item.kind === 'estimate', item.id);
    if (!item.numeric)
      assert.deepEqual(
        item.optionIds,
        bank.items.find((raw) => raw.id === item.id).options.map((option) => option.id),
      );
  }
});

test('the bank id is a short hash of the takeaway ids, so editing questions keeps saved progress', { skip }, () => {
  const prepared = prepareBank(engine, bank);
  assert.match(prepared.bankId, /^[0-9a-f]{8}$/);
  const edited = clone(bank);
  edited.items[0].prompt += ' (reworded)';
  assert.equal(prepareBank(engine, edited).bankId, prepared.bankId);
  assert.equal(prepared.bankId, shortHash(bank.takeaways.map((takeaway) => takeaway.id).join(',')));
});

test('a bank given as JSON text is read the same as the parsed one', { skip }, () => {
  assert.deepEqual(
    prepareBank(engine, JSON.stringify(bank)).items.map((item) => item.id),
    prepareBank(engine, bank).items.map((item) => item.id),
  );
});

test('an item with a missing explanation is left out with the engine’s message naming item and field', { skip }, () => {
  const broken = clone(bank);
  delete broken.items[2].explanation;
  const prepared = prepareBank(engine, broken);
  assert.deepEqual(prepared.skipped, [bank.items[2].id]);
  assert.equal(prepared.items.length, bank.items.length - 1);
  const problem = prepared.problems.find((entry) => entry.item === bank.items[2].id);
  assert.equal(problem.field, 'explanation');
  assert.match(describeProblem(problem), new RegExp(`^Question “${bank.items[2].id}”, explanation: `));
});

test('a numeric item whose answer path the estimate lacks is left out; the others stay', { skip }, () => {
  const broken = clone(bank);
  const index = broken.items.findIndex((item) => item.kind === 'numeric');
  broken.items[index].answer.path = 'training.no_such_field';
  const prepared = prepareBank(engine, broken);
  assert.deepEqual(prepared.skipped, [broken.items[index].id]);
  assert.ok(prepared.problems.some((entry) => entry.item === broken.items[index].id && entry.field === 'answer.path'));
});

test('a repeated id keeps the first item and leaves out the repeat', { skip }, () => {
  const broken = clone(bank);
  broken.items.push(clone(broken.items[0]));
  const prepared = prepareBank(engine, broken);
  assert.equal(prepared.items.length, bank.items.length);
  assert.deepEqual(prepared.skipped, [bank.items[0].id]);
  assert.ok(prepared.problems.some((entry) => entry.field === 'id'));
});

test('items that are not objects, or have no id, are left out by position', { skip }, () => {
  const broken = clone(bank);
  broken.items.splice(1, 0, 'a stray string');
  const noId = clone(bank.items[0]);
  delete noId.id;
  broken.items.push(noId);
  const prepared = prepareBank(engine, broken);
  assert.deepEqual(prepared.skipped, ['#2', `#${broken.items.length}`]);
  assert.equal(prepared.items.length, bank.items.length);
});

test('unreadable banks give problems and no items, never a throw', { skip }, () => {
  for (const input of ['{"version": 1, "items": [', null, 42, [], { version: 1 }, { items: 'x' }]) {
    const prepared = prepareBank(engine, input);
    assert.deepEqual(prepared.items, [], JSON.stringify(input));
    assert.ok(prepared.problems.length > 0, JSON.stringify(input));
    assert.ok(prepared.problems.every((problem) => typeof problem.message === 'string' && problem.message.length > 0));
  }
  const cyclic = { version: 1 };
  cyclic.self = cyclic;
  assert.doesNotThrow(() => prepareBank(engine, cyclic));
});

test('an engine that throws or answers nonsense is reported, not propagated', () => {
  const throwing = {
    quizValidateBank() {
      throw new Error('wasm abort');
    },
    quizInstance() {
      throw new Error('wasm abort');
    },
    quizGrade() {
      return '';
    },
    quizReadQuantity() {
      return '';
    },
  };
  const prepared = prepareBank(throwing, { version: 1, takeaways: [{ id: 't', text: 'T' }], items: [{ id: 'a' }] });
  assert.deepEqual(prepared.items, []);
  assert.deepEqual(prepared.skipped, ['a']);
  assert.ok(prepared.problems.length >= 2);
});

test('the saved state of the whole shipped bank, every question answered, fits SCORM suspend_data', { skip }, () => {
  const prepared = prepareBank(engine, bank);
  let progress = initialProgress(prepared.items);
  for (const item of prepared.items) {
    const answer = item.numeric ? { text: '1,120,000,000,000 bytes' } : { choices: item.optionIds.slice() };
    progress = recordAnswer(progress, item.id, answer, false);
    progress.items[item.id].seed = 99999;
  }
  const saved = serializeProgress(progress, prepared.items);
  assert.ok(saved.length < 2500, `${saved.length} characters for ${prepared.items.length} questions`);
});

test("docs/quiz.md states the default bank's true number of items and kinds", async () => {
  // Issue 24: the docs said 21 items when the bank had 24. The sentence is checked, not retyped.
  const { readFileSync } = await import('node:fs');
  const docs = readFileSync(new URL('../../docs/quiz.md', import.meta.url), 'utf8');
  const stated = docs.match(/The default bank has (\d+) items: (\d+) single choice, (\d+) multiple select, (\d+) numeric, (\d+) estimates/);
  assert.ok(stated, "docs/quiz.md no longer states the bank's size in the checked form");
  const count = (kind) => bank.items.filter((item) => item.kind === kind).length;
  assert.deepEqual(stated.slice(1).map(Number), [
    bank.items.length,
    count('single_choice'),
    count('multiple_select'),
    count('numeric'),
    count('estimate'),
  ]);
  const sets = docs.match(/estimates\s+\((\d+) in the lesson set, (\d+) in the deeper set/);
  assert.ok(sets, "docs/quiz.md no longer states the sets' sizes in the checked form");
  const inSet = (set) => bank.items.filter((item) => (item.set ?? 'lesson') === set).length;
  assert.deepEqual(sets.slice(1).map(Number), [inSet('lesson'), inSet('deeper')]);
  const progressNote = docs.match(/for the (\d+)-item bank/);
  assert.equal(Number(progressNote?.[1]), bank.items.length);
});
