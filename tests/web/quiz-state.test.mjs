// The quiz's progress as plain data (web/src/quiz/state.ts): answers, solutions, retries, score,
// summary, and the compact saved form that must survive garbage and fit SCORM's suspend_data.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildQuizUnits } from './quiz-build.mjs';

const units = await buildQuizUnits('state');
const {
  initialProgress,
  recordAnswer,
  revealSolution,
  retryItem,
  retryMissed,
  nextSeed,
  nextUnanswered,
  score,
  summarize,
  serializeProgress,
  deserializeProgress,
  missedIds,
  mergeProgress,
  changedItemIds,
  MAX_SEED,
  MAX_SAVED_TEXT,
  itemCredit,
  optionOrder,
  RETRY_CREDIT,
} = await import(units.state);

const items = [
  { id: 'run-bytes', takeaway: 'memory', optionIds: ['one', 'two', 'four', 'sixteen'] },
  { id: 'train-bytes', takeaway: 'memory', optionIds: [] },
  { id: 'extras', takeaway: 'extras', optionIds: ['weights', 'gradients', 'master', 'adam', 'kv-cache'] },
  { id: 'flops', takeaway: 'compute', optionIds: [] },
];
const takeaways = [
  { id: 'memory', text: 'Running needs 2 bytes per parameter; training about 16.' },
  { id: 'extras', text: 'The extras: gradients, master copy, optimizer state.' },
  { id: 'compute', text: 'Training compute ≈ 6 × N × D.' },
];
const sequence = (...values) => {
  let index = 0;
  return () => values[index++ % values.length];
};

test('a new quiz has every question unanswered, seed 0, and shows the first', () => {
  const progress = initialProgress(items);
  assert.equal(progress.current, 'run-bytes');
  assert.equal(progress.mode, 'one');
  for (const item of items)
    assert.deepEqual(progress.items[item.id], {
      seed: 0,
      attempts: 0,
      status: 'new',
      firstTry: null,
      answer: null,
      solutionSeen: false,
      changedAt: 0,
    });
});

test('a graded answer counts an attempt, and only the first one sets firstTry', () => {
  let progress = initialProgress(items);
  progress = recordAnswer(progress, 'train-bytes', { text: '8 bytes' }, false, 5_000);
  progress = recordAnswer(progress, 'train-bytes', { text: '16 bytes' }, true, 6_000);
  assert.deepEqual(progress.items['train-bytes'], {
    seed: 0,
    attempts: 2,
    status: 'correct',
    firstTry: false,
    answer: { text: '16 bytes' },
    solutionSeen: false,
    changedAt: 6_000,
  });
});

test('changes return a new state and leave the old one untouched', () => {
  const before = initialProgress(items);
  const after = recordAnswer(before, 'flops', { text: '1e24' }, true);
  assert.equal(before.items.flops.status, 'new');
  assert.equal(after.items.flops.status, 'correct');
});

test('showing the solution marks a question missed, but never a question already right', () => {
  let progress = recordAnswer(initialProgress(items), 'run-bytes', { choices: ['two'] }, true);
  progress = revealSolution(progress, 'run-bytes');
  progress = revealSolution(progress, 'flops');
  assert.equal(progress.items['run-bytes'].status, 'correct');
  assert.equal(progress.items.flops.status, 'revealed');
  assert.equal(progress.items.flops.attempts, 0, 'a solution is not an attempt');
});

test('trying again asks with the given seed, clears the answer and keeps the attempt count', () => {
  let progress = recordAnswer(initialProgress(items), 'flops', { text: '3 days' }, false, 5_000);
  progress = retryItem(progress, 'flops', 4242, 7_000);
  assert.deepEqual(progress.items.flops, {
    seed: 4242,
    attempts: 1,
    status: 'new',
    firstTry: false,
    answer: null,
    solutionSeen: false,
    changedAt: 7_000,
  });
});

test('a new seed differs from the previous one and stays in 1…MAX_SEED', () => {
  assert.equal(
    nextSeed(0, () => 0),
    1,
  );
  assert.equal(
    nextSeed(7, () => 0.99999999),
    MAX_SEED,
  );
  assert.notEqual(nextSeed(1, sequence(0, 0, 0.5)), 1);
  assert.equal(
    nextSeed(1, () => 0),
    2,
    'falls back to the following seed when the source keeps repeating',
  );
  for (let previous = 0; previous < 50; previous += 1) {
    const seed = nextSeed(previous, Math.random);
    assert.ok(seed >= 1 && seed <= MAX_SEED && seed !== previous);
  }
});

test('the next unanswered question wraps round, and there is none once all are answered', () => {
  let progress = initialProgress(items);
  progress = recordAnswer(progress, 'train-bytes', { text: '16' }, true);
  assert.equal(nextUnanswered(progress, items, 'run-bytes'), 'extras');
  assert.equal(nextUnanswered(progress, items, 'flops'), 'run-bytes');
  assert.equal(nextUnanswered(progress, items, null), 'run-bytes');
  for (const item of items) progress = revealSolution(progress, item.id);
  assert.equal(nextUnanswered(progress, items, 'run-bytes'), null);
});

test('the score counts right answers; solutions and wrong answers count as answered, not right', () => {
  let progress = initialProgress(items);
  progress = recordAnswer(progress, 'run-bytes', { choices: ['two'] }, true);
  progress = recordAnswer(progress, 'train-bytes', { text: '2' }, false);
  progress = revealSolution(progress, 'extras');
  assert.deepEqual(score(progress, items), { score: 1, max: 4, scaled: 0.25, passed: null, completed: false, answered: 3, right: 1 });
  progress = recordAnswer(progress, 'flops', { text: '1e24' }, true);
  assert.deepEqual(score(progress, items), { score: 2, max: 4, scaled: 0.5, passed: null, completed: true, answered: 4, right: 2 });
});

test('with a pass mark, passed is true once reached, false only when complete below it, else unknown', () => {
  let progress = recordAnswer(initialProgress(items), 'run-bytes', { choices: ['two'] }, true);
  assert.equal(score(progress, items, 0.25).passed, true, 'reached before the end');
  assert.equal(score(progress, items, 0.5).passed, null, 'not reached yet, questions left');
  for (const id of ['train-bytes', 'extras', 'flops']) progress = revealSolution(progress, id);
  assert.equal(score(progress, items, 0.5).passed, false);
  assert.equal(score(progress, items, 0).passed, true);
});

test('a pass mark outside 0..1 or not a number is ignored', () => {
  const progress = initialProgress(items);
  for (const mark of [1.5, -0.1, Number.NaN, '0.8', null, undefined]) assert.equal(score(progress, items, mark).passed, null, String(mark));
});

test('an empty quiz scores 0 of 0 and is not complete', () => {
  assert.deepEqual(score(initialProgress([]), []), { score: 0, max: 0, scaled: 0, passed: null, completed: false, answered: 0, right: 0 });
});

test('the summary lists the takeaways to revisit in the bank’s order, each with its missed questions', () => {
  let progress = initialProgress(items);
  progress = recordAnswer(progress, 'flops', { text: '1' }, false);
  progress = recordAnswer(progress, 'run-bytes', { choices: ['sixteen'] }, false);
  progress = revealSolution(progress, 'train-bytes');
  progress = recordAnswer(progress, 'extras', { choices: ['weights'] }, true);
  const summary = summarize(progress, items, takeaways);
  assert.deepEqual(summary.missed, ['run-bytes', 'train-bytes', 'flops']);
  assert.deepEqual(
    summary.revisit.map((entry) => [entry.takeaway.id, entry.itemIds]),
    [
      ['memory', ['run-bytes', 'train-bytes']],
      ['compute', ['flops']],
    ],
  );
  assert.equal(summary.firstTry, 1);
  assert.equal(summary.completed, true);
});

test('a missed question whose takeaway the bank does not list is still offered for revisiting', () => {
  const odd = [...items, { id: 'stray', takeaway: 'unlisted', optionIds: [] }];
  const progress = recordAnswer(initialProgress(odd), 'stray', { text: '1' }, false);
  const summary = summarize(progress, odd, takeaways);
  assert.deepEqual(
    summary.revisit.map((entry) => entry.takeaway.id),
    ['unlisted'],
  );
});

test('retrying the missed questions gives each a new seed, leaves the right ones alone and shows the first', () => {
  let progress = initialProgress(items);
  progress = recordAnswer(progress, 'run-bytes', { choices: ['two'] }, true);
  progress = recordAnswer(progress, 'train-bytes', { text: '2' }, false);
  progress = revealSolution(progress, 'flops');
  progress = { ...progress, current: null };
  const retried = retryMissed(progress, items, sequence(0.1, 0.2));
  assert.equal(retried.current, 'train-bytes');
  assert.equal(retried.items['run-bytes'].status, 'correct');
  for (const id of ['train-bytes', 'flops']) {
    assert.equal(retried.items[id].status, 'new');
    assert.ok(retried.items[id].seed >= 1);
  }
  assert.deepEqual(missedIds(retried, items), []);
});

test('the saved form round-trips statuses, seeds, attempts, typed answers and chosen options', () => {
  let progress = initialProgress(items, 'all');
  progress = recordAnswer(progress, 'run-bytes', { choices: ['four'] }, false);
  progress = revealSolution(progress, 'run-bytes');
  progress = recordAnswer(progress, 'extras', { choices: ['weights', 'adam'] }, false);
  progress = retryItem(recordAnswer(progress, 'flops', { text: '3e24 FLOP' }, false), 'flops', 977);
  progress = recordAnswer(progress, 'flops', { text: '3.6e25 FLOPs' }, true);
  progress = { ...progress, current: 'extras' };
  const saved = serializeProgress(progress, items);
  assert.deepEqual(deserializeProgress(saved, items), progress);
  assert.ok(!saved.includes('Running needs'), 'no prompt or takeaway text is saved');
});

test('the summary view (current null) survives a reload', () => {
  const progress = { ...initialProgress(items), current: null };
  assert.equal(deserializeProgress(serializeProgress(progress, items), items).current, null);
});

test('garbage, other versions and wrong shapes give a fresh start, never a throw', () => {
  const fresh = initialProgress(items);
  for (const text of [
    null,
    undefined,
    '',
    'not json',
    '[]',
    'null',
    '42',
    '"x"',
    '{"v":2,"i":{}}',
    '{"v":1,"i":[]}',
    '{"v":1,"i":{"flops":"c"}}',
    '{"v":1,"i":{"flops":[1,1,"?",1,0]}}',
    '{"v":1,"i":{"flops":[-1,1,"c",1,0]}}',
    '{"v":1,"i":{"flops":[1.5,1,"c",1,0]}}',
    '{"v":1,"i":{"__proto__":[1,1,"c",1,0]}}',
    '{"v":1,"c":"nope","i":{}}',
    'x'.repeat(200_000),
  ]) {
    assert.deepEqual(deserializeProgress(text, items), fresh, String(text).slice(0, 40));
  }
});

test('random bytes never make the reader throw', () => {
  const alphabet = '{}[]",:0123456789abcnrvxi -.\\e';
  for (let run = 0; run < 2000; run += 1) {
    let text = '{"v":1,"i":{"flops":[';
    for (let index = 0; index < 1 + (run % 30); index += 1) text += alphabet[Math.floor(Math.random() * alphabet.length)];
    const progress = deserializeProgress(text, items);
    assert.equal(Object.keys(progress.items).length, items.length);
  }
});

test('saved answers that do not fit the bank now are dropped, the rest kept', () => {
  const saved = JSON.stringify({
    v: 1,
    m: 'o',
    c: 'gone',
    i: {
      gone: [5, 1, 'c', 1, 'x'],
      'run-bytes': [0, 1, 'x', 0, [9]],
      extras: [0, 1, 'c', 1, [0, 1]],
      flops: [0, 0, 'c', 1, '1e24'],
    },
  });
  const progress = deserializeProgress(saved, items);
  assert.equal(progress.current, 'run-bytes', 'an unknown current question falls back to the first');
  assert.equal('gone' in progress.items, false);
  assert.deepEqual(progress.items['run-bytes'], {
    seed: 0,
    attempts: 1,
    status: 'incorrect',
    firstTry: false,
    answer: null,
    solutionSeen: false,
    changedAt: 0,
  });
  assert.deepEqual(progress.items.extras.answer, { choices: ['weights', 'gradients'] });
  assert.equal(progress.items.flops.status, 'new', 'a right answer with no attempt behind it is not trusted');
  assert.equal(progress.items['train-bytes'].status, 'new', 'a question the save does not know starts fresh');
});

test(`typed answers longer than ${MAX_SAVED_TEXT} characters are not saved`, () => {
  const progress = recordAnswer(initialProgress(items), 'flops', { text: '1'.repeat(MAX_SAVED_TEXT + 1) }, false);
  assert.equal(deserializeProgress(serializeProgress(progress, items), items).items.flops.answer, null);
});

test('a whole bank of 40 long-named questions, all answered at length, saves in under 4,000 characters', () => {
  const many = Array.from({ length: 40 }, (_, index) => ({
    id: `a-rather-long-question-identifier-${String(index).padStart(2, '0')}`,
    takeaway: 't',
    optionIds: ['a', 'b', 'c', 'd', 'e', 'f'],
  }));
  let progress = initialProgress(many);
  many.forEach((item, index) => {
    progress = retryItem(recordAnswer(progress, item.id, { text: 'x' }, false), item.id, 99999);
    progress = recordAnswer(
      progress,
      item.id,
      index % 2 ? { text: '1,120,000,000,000.5 gigabytes!' } : { choices: ['a', 'b', 'c', 'd', 'e', 'f'] },
      index % 3 === 0,
    );
  });
  const saved = serializeProgress(progress, many);
  assert.ok(saved.length < 4000, `${saved.length} characters`);
  const back = deserializeProgress(saved, many);
  for (const item of many) assert.equal(back.items[item.id].status, progress.items[item.id].status);
});

// ── Saved state read with own properties only (issue 10, case 5) ─────────────────────────────

test('a saved state naming Object.prototype members ("constructor", "toString") is dropped item by item', () => {
  const saved = JSON.stringify({
    v: 1,
    m: 'o',
    c: 'toString',
    i: {
      'run-bytes': [0, 0, 'constructor', -1, 0],
      extras: [0, 1, 'c', 1, [0]],
      flops: [0, 1, 'toString', 1, 0],
    },
  });
  const progress = deserializeProgress(saved, items);
  assert.equal(progress.items['run-bytes'].status, 'new', 'an unknown status code is not found on the prototype');
  assert.equal(progress.items.flops.status, 'new');
  assert.equal(progress.items.extras.status, 'correct', 'the readable item is kept');
  assert.equal(progress.current, 'run-bytes', 'an unknown current question falls back to the first');
  for (const item of items) assert.ok(['new', 'correct', 'incorrect', 'revealed'].includes(progress.items[item.id].status));
});

// ── Merging two saved states: two tabs, or two widgets with one key (issue 10, case 1) ───────

test('states saved before merging existed (five fields) are read with no change time', () => {
  const progress = deserializeProgress('{"v":1,"m":"o","c":"flops","i":{"flops":[3,1,"c",1,"3e25 FLOP"]}}', items);
  assert.equal(progress.items.flops.status, 'correct');
  assert.equal(progress.items.flops.changedAt, 0);
});

test('a change time that is not a whole non-negative number drops that item only', () => {
  const progress = deserializeProgress(
    '{"v":1,"i":{"flops":[3,1,"c",1,0,-4],"extras":[0,1,"c",1,0,"x"],"train-bytes":[0,1,"c",1,0,1700000000000]}}',
    items,
  );
  assert.equal(progress.items.flops.status, 'new');
  assert.equal(progress.items.extras.status, 'new');
  assert.equal(progress.items['train-bytes'].status, 'correct');
  assert.equal(progress.items['train-bytes'].changedAt, 1700000000000);
});

test('two tabs that answered different questions merge into both answers, whichever saves last', () => {
  const tabA = recordAnswer(initialProgress(items), 'run-bytes', { choices: ['two'] }, true, 1_000);
  const tabB = recordAnswer(initialProgress(items), 'flops', { text: '3.6e25 FLOP' }, true, 2_000);
  for (const merged of [mergeProgress(tabA, tabB), mergeProgress(tabB, tabA)]) {
    assert.equal(merged.items['run-bytes'].status, 'correct');
    assert.equal(merged.items.flops.status, 'correct');
    assert.equal(merged.items.extras.status, 'new');
  }
});

test('for one question answered in both tabs, the later answer wins, right or wrong', () => {
  const right = recordAnswer(initialProgress(items), 'flops', { text: '3.6e25 FLOP' }, true, 1_000);
  const laterWrong = recordAnswer(initialProgress(items), 'flops', { text: '1 FLOP' }, false, 2_000);
  assert.equal(mergeProgress(right, laterWrong).items.flops.status, 'incorrect');
  assert.equal(mergeProgress(laterWrong, right).items.flops.status, 'incorrect');
});

test('starting again from scratch wins over older answers kept by another tab, not over newer ones', () => {
  const older = recordAnswer(initialProgress(items), 'flops', { text: '3.6e25 FLOP' }, true, 1_000);
  const restarted = initialProgress(items, 'one', 5_000);
  assert.equal(mergeProgress(restarted, older).items.flops.status, 'new');
  const newer = recordAnswer(older, 'extras', { choices: ['weights'] }, false, 9_000);
  assert.equal(mergeProgress(restarted, newer).items.extras.status, 'incorrect');
  assert.equal(mergeProgress(restarted, newer).items.flops.status, 'new');
});

test('a change always moves an item’s time forward, even with a clock behind the saved one', () => {
  const saved = recordAnswer(initialProgress(items), 'flops', { text: '1 FLOP' }, false, 10_000);
  const retried = retryItem(saved, 'flops', 5, 3_000);
  assert.ok(retried.items.flops.changedAt > saved.items.flops.changedAt);
  assert.equal(mergeProgress(saved, retried).items.flops.status, 'new');
});

test('an earlier version’s state (no times) fills questions a fresh state has not touched', () => {
  const fresh = initialProgress(items);
  const old = deserializeProgress('{"v":1,"m":"o","c":"flops","i":{"flops":[3,1,"c",1,0]}}', items);
  const merged = mergeProgress(fresh, old);
  assert.equal(merged.items.flops.status, 'correct', 'equal times: the one with more attempts');
  assert.deepEqual(changedItemIds(fresh, merged), ['flops']);
  assert.equal(merged.current, fresh.current, 'the page’s own question stays shown');
});

test('merged states round-trip through the saved form with their change times', () => {
  const tabA = recordAnswer(initialProgress(items), 'run-bytes', { choices: ['two'] }, true, 1_000);
  const back = deserializeProgress(serializeProgress(tabA, items), items);
  assert.equal(back.items['run-bytes'].changedAt, 1_000);
  assert.deepEqual(back, tabA);
});

// ---- Scoring by try (issue 11, item 3; docs/quiz.md "Scoring") -------------------------------

test('a question right at the first try scores 1 point', () => {
  const progress = recordAnswer(initialProgress(items), 'train-bytes', { text: '16' }, true);
  assert.equal(itemCredit(progress.items['train-bytes']), 1);
  assert.equal(score(progress, items).score, 1);
});

test('a question right at a later try scores half a point, and counts as right', () => {
  let progress = recordAnswer(initialProgress(items), 'train-bytes', { text: '2' }, false);
  progress = retryItem(progress, 'train-bytes', 7);
  progress = recordAnswer(progress, 'train-bytes', { text: '16' }, true);
  assert.equal(RETRY_CREDIT, 0.5);
  assert.deepEqual(score(progress, items), { score: 0.5, max: 4, scaled: 0.125, passed: null, completed: false, answered: 1, right: 1 });
});

test('a question answered right after its solution was shown scores nothing', () => {
  let progress = revealSolution(initialProgress(items), 'run-bytes');
  progress = retryItem(progress, 'run-bytes', 3);
  progress = recordAnswer(progress, 'run-bytes', { choices: ['two'] }, true);
  assert.equal(progress.items['run-bytes'].status, 'correct');
  assert.equal(itemCredit(progress.items['run-bytes']), 0);
  assert.deepEqual(score(progress, items), { score: 0, max: 4, scaled: 0, passed: null, completed: false, answered: 1, right: 1 });
});

test('a solution shown after a wrong answer also leaves a later right answer without points', () => {
  let progress = recordAnswer(initialProgress(items), 'train-bytes', { text: '2' }, false);
  progress = revealSolution(progress, 'train-bytes');
  progress = retryItem(progress, 'train-bytes', 9);
  progress = recordAnswer(progress, 'train-bytes', { text: '16' }, true);
  assert.equal(score(progress, items).score, 0);
});

test('the pass mark is judged on the points, not on the questions right', () => {
  let progress = initialProgress(items);
  for (const item of items) progress = revealSolution(progress, item.id);
  for (const item of items) progress = recordAnswer(retryItem(progress, item.id, 5), item.id, { text: 'x' }, true);
  const result = score(progress, items, 0.5);
  assert.equal(result.right, 4);
  assert.equal(result.passed, false);
});

test('a shown solution survives the saved form, and states saved before it are read from their status', () => {
  let progress = revealSolution(initialProgress(items), 'flops');
  progress = retryItem(progress, 'flops', 4);
  const back = deserializeProgress(serializeProgress(progress, items), items);
  assert.equal(back.items.flops.status, 'new');
  assert.equal(back.items.flops.solutionSeen, true);
  const old = JSON.stringify({ v: 1, m: 'o', c: 'flops', i: { flops: [0, 0, 'r', -1, 0, 5] } });
  assert.equal(deserializeProgress(old, items).items.flops.solutionSeen, true);
});

// ---- Option order (issue 11, item 2) ---------------------------------------------------------

const optionTexts = ['a', 'b', 'c', 'd'];

test('the option order is the same for the same learner and question seed (a reload)', () => {
  assert.deepEqual(optionOrder(optionTexts, 'run-bytes', 123, 0), optionOrder(optionTexts, 'run-bytes', 123, 0));
});

test('the option order keeps every option exactly once', () => {
  for (let learner = 1; learner < 50; learner += 1) assert.deepEqual([...optionOrder(optionTexts, 'q', learner, 0)].sort(), optionTexts);
});

test('the first option is first for about a quarter of learners, not for all', () => {
  let first = 0;
  const learners = 2000;
  for (let learner = 1; learner <= learners; learner += 1) if (optionOrder(optionTexts, 'run-bytes', learner, 0)[0] === 'a') first += 1;
  assert.ok(first > learners * 0.18 && first < learners * 0.32, `${first} of ${learners}`);
});

test('a new question seed ("Try again") gives another order for most learners', () => {
  let changed = 0;
  for (let learner = 1; learner <= 200; learner += 1) {
    if (optionOrder(optionTexts, 'run-bytes', learner, 11).join() !== optionOrder(optionTexts, 'run-bytes', learner, 12).join())
      changed += 1;
  }
  assert.ok(changed > 150, `${changed} of 200`);
});

test('a new quiz draws no learner seed by itself; the saved form keeps one, and a merge fills a missing one', () => {
  assert.equal(initialProgress(items).learner, 0);
  const progress = initialProgress(items, 'one', 0, 4242);
  assert.equal(deserializeProgress(serializeProgress(progress, items), items).learner, 4242);
  assert.equal(mergeProgress(initialProgress(items), progress).learner, 4242);
  assert.equal(mergeProgress(progress, initialProgress(items, 'one', 0, 7)).learner, 4242);
});
