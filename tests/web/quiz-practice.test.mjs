// Practice per takeaway and mastery (web/src/quiz/practice.ts; docs/quiz.md, "Practice"; issue 34
// items 1 and 2): two right in a row without show-me master a takeaway; the question after a slip
// is the bank's data; mastery and the run ride the saved state, which stays within SCORM 1.2's
// 4,096 characters with everything answered and practised.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildQuizUnits, readBank } from './quiz-build.mjs';

const units = await buildQuizUnits('practice');
const { initialProgress, recordAnswer, serializeProgress, deserializeProgress, mergeProgress, MAX_SAVED_TEXT } = await import(units.state);
const {
  MASTERY_STREAK,
  masteryState,
  noteAnswer,
  noteShown,
  resetMastery,
  nextPracticeItem,
  practiceOrder,
  askPractice,
  changePractice,
  takeawayProgress,
} = await import(units.practice);

const bank = readBank();
const pool = bank.items.map((item) => ({ id: item.id, takeaway: item.takeaway, kind: item.kind, practises: item.practises ?? [] }));
const infos = bank.items.map((item) => ({
  id: item.id,
  takeaway: item.takeaway,
  optionIds: (item.options ?? []).map((option) => option.id),
}));
const T = 'memory-per-parameter';

test('a takeaway is mastered after two right answers in a row, and only then', () => {
  assert.equal(MASTERY_STREAK, 2);
  let progress = initialProgress(infos);
  assert.equal(masteryState(progress, T), 'not-started');
  let noted = noteAnswer(progress, T, true, true, 1000);
  assert.equal(masteryState(noted.progress, T), 'practising');
  assert.equal(noted.mastered, false);
  noted = noteAnswer(noted.progress, T, true, true, 1001);
  assert.equal(masteryState(noted.progress, T), 'mastered');
  assert.equal(noted.mastered, true, 'the answer that masters it says so, once');
  noted = noteAnswer(noted.progress, T, false, true, 1002);
  assert.equal(masteryState(noted.progress, T), 'mastered', 'a later slip does not take mastery away');
  assert.equal(noted.mastered, false);
  progress = noted.progress;
  assert.equal(masteryState(progress, 'compute-6nd'), 'not-started', 'other takeaways are untouched');
});

test('a wrong answer, a shown solution or "show me" starts the streak again; a right answer after them does not count', () => {
  const start = initialProgress(infos);
  const right = (progress, clean = true) => noteAnswer(progress, T, true, clean).progress;
  assert.equal(masteryState(right(noteAnswer(right(start), T, false, true).progress), T), 'practising', 'right, wrong, right');
  assert.equal(masteryState(right(noteShown(right(start), T)), T), 'practising', 'right, solution, right');
  assert.equal(masteryState(right(right(start), false), T), 'practising', 'right, then right after show-me');
  assert.equal(masteryState(right(right(start)), T), 'mastered');
  assert.equal(masteryState(right(right(start, false)), T), 'practising', 'right after show-me, then right');
});

test('after a slip the engine names, the next question is the one the bank says practises it', () => {
  // The two examples: a forgotten master copy → what the 16 bytes hold; 1,000 vs 1,024 → a unit question.
  assert.equal(nextPracticeItem(pool, T, 'forgot-master-copy', 'train-bytes-per-parameter', 1), 'where-the-16-comes-from');
  assert.equal(nextPracticeItem(pool, 'sharding-checkpointing', 'gib_vs_gb', 'zero3-per-gpu', 1), 'gib-or-gb');
  assert.equal(nextPracticeItem(pool, T, 'unit_prefix', 'training-memory-model-states', 3), 'gib-or-gb');
  // A slip no question practises: the takeaway's next question, not the one just asked.
  const next = nextPracticeItem(pool, T, 'no-such-slip', 'run-bytes-per-parameter', 0);
  assert.equal(pool.find((item) => item.id === next).takeaway, T);
  assert.notEqual(next, 'run-bytes-per-parameter');
});

test('without a slip, practice turns the kinds over, so two questions in a row are not one idea with new numbers', () => {
  for (const takeaway of bank.takeaways.map((entry) => entry.id)) {
    const order = practiceOrder(pool, takeaway);
    const firstThree = new Set(order.slice(0, 3).map((item) => item.kind));
    assert.equal(firstThree.size, 3, `${takeaway}: ${order.map((item) => item.kind).join(', ')}`);
    let previous = null;
    for (let asked = 0; asked < order.length * 2; asked += 1) {
      const id = nextPracticeItem(pool, takeaway, null, previous, asked);
      assert.notEqual(id, previous);
      previous = id;
    }
  }
});

test('every takeaway of the built-in bank has at least three kinds of question', () => {
  for (const takeaway of bank.takeaways) {
    const kinds = new Set(bank.items.filter((item) => item.takeaway === takeaway.id).map((item) => item.kind));
    assert.ok(kinds.size >= 3, `${takeaway.id}: ${[...kinds].join(', ')}`);
  }
});

test('the score event\u2019s takeaways count the scored questions, the first-try rights and the mastery', () => {
  const lesson = infos.filter((item) => (bank.items.find((raw) => raw.id === item.id).set ?? 'lesson') === 'lesson');
  let progress = initialProgress(lesson);
  progress = recordAnswer(progress, 'run-bytes-per-parameter', { choices: ['two'] }, true);
  progress = recordAnswer(progress, 'train-bytes-per-parameter', { text: '12' }, false);
  progress = noteAnswer(progress, T, true, true).progress;
  const rows = takeawayProgress(progress, lesson, bank.takeaways);
  assert.deepEqual(
    rows.map((row) => row.id),
    bank.takeaways.map((takeaway) => takeaway.id),
  );
  const memory = rows.find((row) => row.id === T);
  assert.equal(memory.items, lesson.filter((item) => item.takeaway === T).length);
  assert.equal(memory.firstTryCorrect, 1);
  assert.equal(memory.mastery, 'practising');
  assert.equal(memory.title, bank.takeaways[0].text);
  assert.equal(rows.find((row) => row.id === 'go-deeper').items, 0);
});

/** Every question answered with the longest typed answer kept (or every option), its solution shown, every takeaway mastered, a run open. */
function everythingAnsweredAndPractised(extraItems = 0) {
  const many = [...infos];
  for (let index = 0; index < extraItems; index += 1) many.push({ id: `an-author-question-${index}`, takeaway: T, optionIds: [] });
  let progress = initialProgress(many);
  const now = Date.UTC(2026, 11, 6);
  for (const item of many) {
    const answer = item.optionIds.length > 0 ? { choices: item.optionIds } : { text: '9'.repeat(MAX_SAVED_TEXT) };
    progress = recordAnswer(progress, item.id, answer, false, now);
    progress = { ...progress, items: { ...progress.items, [item.id]: { ...progress.items[item.id], seed: 99999, solutionSeen: true } } };
  }
  for (const takeaway of bank.takeaways) {
    progress = noteAnswer(progress, takeaway.id, true, true, now).progress;
    progress = noteAnswer(progress, takeaway.id, true, true, now).progress;
  }
  progress = askPractice(
    progress,
    { takeaway: 'sharding-checkpointing', asked: 999, slip: null },
    'context-parallel-long-context',
    99999,
    now,
  );
  progress = changePractice(
    progress,
    (state, id) => recordAnswer(state, id, { choices: ['a-long-option-id', 'another-long-one'] }, false, now),
    'context-parallel-splits-weights',
  );
  return { progress, many };
}

test('the saved state keeps mastery and the practice run, and reads them back', () => {
  const { progress, many } = everythingAnsweredAndPractised();
  const read = deserializeProgress(serializeProgress(progress, many), many);
  for (const takeaway of bank.takeaways) assert.equal(masteryState(read, takeaway.id), 'mastered');
  assert.equal(read.practice.takeaway, 'sharding-checkpointing');
  assert.equal(read.practice.itemId, 'context-parallel-long-context');
  assert.equal(read.practice.item.seed, 99999);
  assert.equal(read.practice.item.status, 'incorrect');
  assert.equal(read.practice.slip, 'context-parallel-splits-weights');
  assert.deepEqual(read.practice.item.answer, { choices: ['a-long-option-id', 'another-long-one'] });
});

test('with everything answered and practised the saved state fits SCORM 1.2\u2019s 4,096 characters of suspend_data', () => {
  // The built-in bank, and a bank four questions larger (the lead's and an author's additions).
  for (const extra of [0, 4]) {
    const { progress, many } = everythingAnsweredAndPractised(extra);
    const saved = serializeProgress(progress, many);
    assert.ok(saved.length <= 4096, `${many.length} questions: ${saved.length} characters`);
    assert.ok(JSON.parse(saved).k, 'mastery is kept even when the answers are dropped');
    assert.ok(JSON.parse(saved).p, 'and the practice run');
  }
});

test('garbage in the saved mastery or run is dropped, the rest kept', () => {
  const { progress, many } = everythingAnsweredAndPractised();
  const saved = JSON.parse(serializeProgress(progress, many));
  saved.k.constructor = 'garbage';
  saved.k['memory-per-parameter'] = [1, 7, 3];
  saved.p = ['x', 'constructor', 'NaN', 0, []];
  const read = deserializeProgress(JSON.stringify(saved), many);
  assert.equal(masteryState(read, 'memory-per-parameter'), 'not-started');
  assert.equal(masteryState(read, 'compute-6nd'), 'mastered');
  assert.equal(
    Object.prototype.hasOwnProperty.call(read.mastery, 'constructor'),
    false,
    'an own key "constructor" is refused by its shape',
  );
  assert.equal(read.practice, null);
});

test('two tabs merge mastery takeaway by takeaway, the later change winning; a restart wins over older mastery', () => {
  const mine = noteAnswer(initialProgress(infos), T, true, true, 1000).progress;
  let theirs = noteAnswer(initialProgress(infos), T, true, true, 2000).progress;
  theirs = noteAnswer(theirs, T, true, true, 2001).progress;
  assert.equal(masteryState(mergeProgress(mine, theirs), T), 'mastered');
  const restarted = resetMastery(
    initialProgress(infos),
    bank.takeaways.map((entry) => entry.id),
    3000,
  );
  assert.equal(masteryState(mergeProgress(restarted, theirs), T), 'not-started');
  assert.equal(mergeProgress(restarted, theirs).practice, null);
});

test('the practice-counts attribute: on lets practice count, off or absent never; anything else is a problem naming it', async () => {
  const { readSettings } = await import('../../build/web-units/ship/settings.mjs');
  const none = { preset: null, scenario: null, sections: null, theme: null, passMark: null };
  assert.equal(readSettings(none).practiceCounts, false);
  for (const value of ['on', 'ON', 'true', '', 'yes'])
    assert.equal(readSettings({ ...none, practiceCounts: value }).practiceCounts, true, value);
  for (const value of ['off', 'no', 'false']) {
    assert.equal(readSettings({ ...none, practiceCounts: value }).practiceCounts, false, value);
    assert.deepEqual(readSettings({ ...none, practiceCounts: value }).problems, []);
  }
  const refused = readSettings({ ...none, practiceCounts: 'sometimes' });
  assert.equal(refused.practiceCounts, false);
  assert.equal(refused.problems.length, 1);
  assert.match(refused.problems[0], /practice-counts/);
});
