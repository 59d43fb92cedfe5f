// A quiz the size of the lesson (docs/quiz.md, "Sets"; issue 31 item 5): which set is asked, the
// quiz and draw attributes, the saved flag for going on to the deeper questions, and states saved
// by the version before sets, which must still load.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildQuizUnits, readBank } from './quiz-build.mjs';
import { readSettings } from '../../build/web-units/ship/settings.mjs';

const units = await buildQuizUnits('sets');
const { chooseSet, deserializeProgress, initialProgress, selectItems, serializeProgress, QUIZ_SETS } = await import(units.state);

const none = { preset: null, scenario: null, sections: null, theme: null, passMark: null };
const item = (id, set) => ({ id, set, takeaway: 'memory', optionIds: [] });
const mixed = [item('a', 'lesson'), item('b', 'deeper'), item('c', 'lesson'), item('d', 'deeper'), item('e', 'deeper')];
const ids = (list) => list.map((entry) => entry.id);

test('the sets are lesson, deeper and all', () => {
  assert.deepEqual([...QUIZ_SETS], ['lesson', 'deeper', 'all']);
});

test('by default the lesson set is asked, and the deeper questions wait as the set to go on to', () => {
  const choice = chooseSet(mixed, 'lesson');
  assert.equal(choice.set, 'lesson');
  assert.deepEqual(ids(choice.asked), ['a', 'c']);
  assert.deepEqual(ids(choice.further), ['b', 'd', 'e']);
  assert.equal(choice.labelled, true);
  assert.equal(choice.fellBack, false);
});

test('deeper asks the deeper questions alone, all asks every question in the bank order; neither offers more', () => {
  assert.deepEqual(ids(chooseSet(mixed, 'deeper').asked), ['b', 'd', 'e']);
  assert.deepEqual(ids(chooseSet(mixed, 'deeper').further), []);
  assert.deepEqual(ids(chooseSet(mixed, 'all').asked), ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(ids(chooseSet(mixed, 'all').further), []);
});

test('a bank written before sets (every item a lesson item) asks every question, unlabelled, as before', () => {
  const old = [item('a', 'lesson'), item('b', 'lesson')];
  const choice = chooseSet(old, 'lesson');
  assert.deepEqual(ids(choice.asked), ['a', 'b']);
  assert.deepEqual(choice.further, []);
  assert.equal(choice.labelled, false);
});

test('a set the bank has no question in falls back to every question, and says it fell back', () => {
  const choice = chooseSet([item('a', 'lesson'), item('b', 'lesson')], 'deeper');
  assert.equal(choice.set, 'all');
  assert.deepEqual(ids(choice.asked), ['a', 'b']);
  assert.equal(choice.fellBack, true);
});

test('the built-in bank asks 13 lesson questions by default, covering the lesson\u2019s four takeaways', () => {
  const bank = readBank();
  const entries = bank.items.map((raw) => ({ id: raw.id, takeaway: raw.takeaway, set: raw.set ?? 'lesson' }));
  const choice = chooseSet(entries, 'lesson');
  assert.ok(choice.asked.length >= 10 && choice.asked.length <= 14, String(choice.asked.length));
  assert.deepEqual(
    new Set(choice.asked.map((entry) => entry.takeaway)),
    new Set(['memory-per-parameter', 'training-extras', 'sharding-checkpointing', 'compute-6nd']),
  );
  assert.equal(choice.asked.length + choice.further.length, bank.items.length);
});

test('a draw picks that many of the set asked, the same ones for the same learner', () => {
  const lesson = chooseSet(mixed, 'lesson').asked;
  const drawn = selectItems(lesson, { order: 'fixed', draw: 1 }, 42);
  assert.equal(drawn.length, 1);
  assert.deepEqual(selectItems(lesson, { order: 'fixed', draw: 1 }, 42), drawn);
  assert.deepEqual(selectItems(lesson, { order: 'fixed', draw: 9 }, 42), lesson, 'more than the set holds asks all of it');
});

test('going on to the deeper questions is saved, and read back', () => {
  const progress = { ...initialProgress(mixed), continued: true };
  const saved = serializeProgress(progress, mixed);
  assert.equal(JSON.parse(saved).d, 1);
  assert.equal(deserializeProgress(saved, mixed).continued, true);
  assert.equal(JSON.parse(serializeProgress(initialProgress(mixed), mixed)).d, undefined, 'absent when the learner has not gone on');
});

test('progress saved by the version before sets (every question asked) loads: lesson and deeper answers alike', () => {
  // The earlier version's saved form for a bank of 31: v 1, no "d"; here two lesson and one deeper item.
  const saved = JSON.stringify({
    v: 1,
    m: 'o',
    c: 'b',
    s: 77,
    i: { a: [0, 1, 'c', 1, 'x', 5], b: [3, 2, 'x', 0, '1 TB', 9], d: [0, 0, 'r', -1, 0, 4, 1] },
  });
  const progress = deserializeProgress(saved, mixed);
  assert.equal(progress.continued, false);
  assert.equal(progress.learner, 77);
  assert.equal(progress.items.a.status, 'correct');
  assert.equal(progress.items.b.status, 'incorrect');
  assert.deepEqual(progress.items.b.answer, { text: '1 TB' });
  assert.equal(progress.items.d.solutionSeen, true);
  assert.equal(progress.current, 'b', 'the question on screen is kept; the quiz moves it into the set asked');
});

test('garbage in the continued flag is read as not continued', () => {
  for (const d of [true, '1', 2, null, {}]) {
    const saved = JSON.stringify({ v: 1, m: 'o', c: null, d, i: {} });
    assert.equal(deserializeProgress(saved, mixed).continued, false, JSON.stringify(d));
  }
});

test('the quiz attribute takes lesson, deeper or all, in any case; lesson without it', () => {
  assert.equal(readSettings(none).quizSet, 'lesson');
  assert.equal(readSettings({ ...none, quiz: '' }).quizSet, 'lesson');
  for (const value of ['lesson', 'deeper', 'all', ' Deeper ', 'ALL'])
    assert.equal(readSettings({ ...none, quiz: value }).quizSet, value.trim().toLowerCase(), value);
  assert.deepEqual(readSettings({ ...none, quiz: 'deeper' }).problems, []);
});

test('a bad quiz value is a problem naming the quiz attribute, and the lesson set is asked', () => {
  const settings = readSettings({ ...none, quiz: 'advanced' });
  assert.equal(settings.quizSet, 'lesson');
  assert.equal(settings.problems.length, 1);
  assert.match(settings.problems[0], /^The quiz attribute must be lesson, deeper or all, not “advanced”/);
});

test('the draw attribute takes a whole number of at least 1; none: the bank decides', () => {
  assert.equal(readSettings(none).draw, null);
  assert.equal(readSettings({ ...none, draw: '5' }).draw, 5);
  assert.equal(readSettings({ ...none, draw: ' 12 ' }).draw, 12);
  assert.equal(readSettings({ ...none, draw: '' }).draw, null);
});

test('a bad draw value is a problem naming the draw attribute, and every question is asked', () => {
  for (const value of ['0', '2.5', '-3', 'five', '1e3', '5 questions', '999999']) {
    const settings = readSettings({ ...none, draw: value });
    assert.equal(settings.draw, null, value);
    assert.equal(settings.problems.length, 1, value);
    assert.match(settings.problems[0], /^The draw attribute must be a whole number/, value);
  }
});
