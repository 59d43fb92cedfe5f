// Which parts a widget shows (web/src/widget/parts-plan.ts, docs/embedding.md "sections"): the
// lesson path by default with every deeper tool behind its disclosure; an author's names turn
// parts on; a link's fields open the deeper part that sets them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { DEEPER_PARTS, LESSON_PARTS, leafPaths, partsForFields, planParts } from '../../build/web-units/parts-plan.mjs';
import { shownControls } from '../../build/web-units/shown-controls.mjs';

test('with no sections the page is the lesson in its order, the quiz, then every deeper part closed', () => {
  const plan = planParts(undefined);
  assert.deepEqual(plan.lesson, ['run-vs-train', 'training-extras', 'sharding-checkpointing', 'compute-time']);
  assert.equal(plan.quiz, true);
  assert.deepEqual(
    plan.deeper.map(({ part, open }) => [part, open]),
    DEEPER_PARTS.map((part) => [part, false]),
  );
});

test('one figure alone: sections="run-vs-train" shows that part and nothing else', () => {
  assert.deepEqual(planParts(['run-vs-train']), { lesson: ['run-vs-train'], deeper: [], quiz: false });
});

test('an author who names a deeper part turns it on, drawn open', () => {
  const plan = planParts(['fit', 'quiz']);
  assert.deepEqual(plan.lesson, []);
  assert.deepEqual(plan.deeper, [{ part: 'fit', open: true }]);
});

test("the first sections' names still work: memory and time are the lesson's halves with their tools closed", () => {
  const plan = planParts(['memory', 'time', 'quiz']);
  assert.deepEqual(plan.lesson, [...LESSON_PARTS]);
  assert.ok(
    plan.deeper.every(({ open }) => !open),
    'memory and time open no tool',
  );
  assert.ok(
    plan.deeper.some(({ part }) => part === 'fit'),
    'memory keeps "what fits" one step away',
  );
  assert.deepEqual(planParts(['time']).lesson, ['compute-time']);
  assert.deepEqual(planParts(['time']).deeper, [{ part: 'time-over-gpus', open: false }]);
});

test("parts come in the lesson's order whatever order the author wrote", () => {
  assert.deepEqual(planParts(['compute-time', 'run-vs-train']).lesson, ['run-vs-train', 'compute-time']);
});

test("a link that sets a deeper tool's field opens that tool; the lesson's own fields open none", () => {
  const fields = leafPaths({
    model: { preset: 'llama3-405b' },
    parallel: { gpus: 64, zero_stage: 3, tensor: 8 },
    training: { recompute: 'full' },
  });
  assert.deepEqual(fields.sort(), ['model.preset', 'parallel.gpus', 'parallel.tensor', 'parallel.zero_stage', 'training.recompute']);
  assert.deepEqual(partsForFields(fields, false), ['layouts']);
  assert.deepEqual(partsForFields(['training.sequence_parallel'], false), ['layouts'], "not the activations' training.sequence");
  assert.deepEqual(partsForFields(['training.sequence'], false), ['activations']);
  assert.deepEqual(partsForFields(['hardware.utilization', 'training.lora.rank'], true), ['step', 'time-over-gpus', 'fit']);
  assert.deepEqual(partsForFields(['model.preset', 'training.optimizer', 'training.tokens'], false), []);
});

test("the engine's notes may name only the drawn parts' controls: the lesson path offers no tensor parallelism", () => {
  const lesson = shownControls(LESSON_PARTS).split(' ');
  assert.ok(lesson.includes('training.recompute') && lesson.includes('parallel.zero_stage'));
  assert.ok(!lesson.includes('parallel.tensor') && !lesson.includes('training.sequence'));
  assert.ok(
    shownControls([...LESSON_PARTS, 'layouts'])
      .split(' ')
      .includes('parallel.tensor'),
  );
});
