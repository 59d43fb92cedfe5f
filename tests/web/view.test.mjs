// The page's one engine call per input (web/src/engine/view.ts, docs/scenario.md "The page's
// view"), against the real wasm engine: the parts only some sections draw come only when asked.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readView, NO_PARTS, bothParts, holdsParts } from '../../build/web-units/view.mjs';
import { engineModule as engine } from './wasm-engine.mjs';

const t = (_key, fallback) => fallback;
// Llama 3 70B on 64 GPUs with tensor and pipeline parallelism: a curve with several points and a schedule with several phases.
const sharded = JSON.stringify({ model: { preset: 'llama3-70b' }, parallel: { gpus: 64, tensor: 8, pipeline: 2 } });
const every = { step: false, communicationCurve: true, communicationSchedule: true };

function view(parts) {
  const answer = readView(engine, sharded, { knownReference: '', ...parts }, t);
  assert.equal(answer.ok, true);
  return answer;
}

test('a view asked for no parts carries neither the communication curve nor its schedule', () => {
  const { estimate, parts } = view(NO_PARTS);
  assert.equal(estimate.compute.time_over_gpus_communication, undefined);
  assert.equal(estimate.communication.schedule, undefined);
  assert.equal(estimate.communication.summary, undefined);
  assert.deepEqual(parts, NO_PARTS);
});

test("a view asked for every part carries the engine estimate's curve and schedule, number for number", () => {
  const { estimate } = view(every);
  const alone = JSON.parse(engine.estimate(sharded));
  assert.ok(estimate.compute.time_over_gpus_communication.length > 1);
  assert.deepEqual(estimate.compute.time_over_gpus_communication, alone.compute.time_over_gpus_communication);
  assert.deepEqual(estimate.communication, alone.communication);
});

test('the figures every section draws are the same whichever parts are asked for', () => {
  const lean = view(NO_PARTS).estimate;
  const full = view(every).estimate;
  assert.deepEqual(lean.training, full.training);
  assert.deepEqual(lean.compute.time_over_gpus, full.compute.time_over_gpus);
  assert.equal(lean.communication.predicted_mfu, full.communication.predicted_mfu);
});

test('parts held cover a request only when they hold every part it asks for', () => {
  const curve = { ...NO_PARTS, communicationCurve: true };
  assert.equal(holdsParts(curve, NO_PARTS), true);
  assert.equal(holdsParts(curve, { ...NO_PARTS, step: true }), false);
  assert.deepEqual(bothParts(curve, { step: true }), { step: true, communicationCurve: true, communicationSchedule: false });
});
