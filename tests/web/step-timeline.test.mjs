// The page reads the step timeline in columns (web/src/engine/step-timeline.ts); what it reads must be
// exactly what parsing the engine's stepTimeline JSON gives, event by event, field by field.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readStepTimeline, stepTimelineFromColumns } from '../../build/web-units/step-timeline.mjs';
import { engineModule as engine } from './wasm-engine.mjs';

const tenThousandLayers = { architecture: { layers: 10000, hidden: 256, heads: 4, mlp: 1024, vocab: 1000 } };
const scenarios = {
  'the default scenario': {},
  'ZeRO-3 with full recompute': { model: { preset: 'llama3-8b' }, training: { recompute: 'full' }, parallel: { gpus: 8, zero_stage: 3 } },
  'a pipeline with micro-batches': {
    model: { preset: 'llama3-70b' },
    training: { global_batch: 1024 },
    parallel: { gpus: 64, pipeline: 8, zero_stage: 1 },
  },
  'an interleaved pipeline of the 405B model': {
    model: { preset: 'llama3-405b' },
    training: { global_batch: 4096 },
    parallel: { gpus: 16384, tensor: 8, pipeline: 16, interleave: 2 },
  },
  'a 10,000-layer model': { model: tenThousandLayers, training: { recompute: 'full' }, parallel: { gpus: 8, zero_stage: 3 } },
  'a 10,000-layer model in a pipeline': {
    model: tenThousandLayers,
    training: { global_batch: 1000000 },
    parallel: { gpus: 1000, pipeline: 100, zero_stage: 2 },
  },
  'gradient accumulation on a mixture of experts': {
    model: { preset: 'mixtral-8x7b' },
    training: { global_batch: 64, recompute: 'selective' },
    parallel: { gpus: 16, zero_stage: 2 },
  },
  'a custom GPU': { hardware: { gpu: 'custom', memory_bytes: 24e9, peak_flops: 1e14 }, training: { precision: 'fp32' } },
};

for (const [name, scenario] of Object.entries(scenarios)) {
  test(`the timeline read in columns is the JSON's, for ${name}`, () => {
    const text = JSON.stringify(scenario);
    const fromJson = JSON.parse(engine.stepTimeline(text));
    assert.deepEqual(fromJson.errors, []);
    assert.ok(fromJson.events.length > 0);
    assert.deepStrictEqual(readStepTimeline(engine, text), fromJson);
  });
}

test('the events stay whole after the next engine call reuses the memory they were read from', () => {
  const first = JSON.stringify(scenarios['a 10,000-layer model']);
  const read = readStepTimeline(engine, first);
  readStepTimeline(engine, JSON.stringify(scenarios['the default scenario']));
  engine.estimate('{}');
  assert.deepStrictEqual(read, JSON.parse(engine.stepTimeline(first)));
});

test("a bad scenario gives the JSON's field-named errors and no events", () => {
  for (const text of ['{"parallel":{"zero_stage":7}}', '{"parallel":{"gpus":-1}}', 'not json']) {
    const read = readStepTimeline(engine, text);
    assert.deepStrictEqual(read, JSON.parse(engine.stepTimeline(text)));
    assert.equal(read.events, undefined);
    assert.ok(read.errors.length > 0);
  }
  assert.ok(readStepTimeline(engine, '{"parallel":{"zero_stage":7}}').errors.some((error) => error.field === 'parallel.zero_stage'));
});

test('numbers that do not match the summary are named, not drawn', () => {
  const summary = engine.stepTimelineColumns('{}');
  const numbers = engine.stepTimelineNumbers().slice();
  const short = stepTimelineFromColumns(summary, numbers.slice(0, numbers.length - 1));
  assert.equal(short.events, undefined);
  assert.equal(short.errors[0].field, 'stepTimeline');
  assert.match(short.errors[0].message, /numbers for \d+ events/);
  const broken = stepTimelineFromColumns(JSON.stringify({ errors: [], event_count: 1 }), new Float64Array(17));
  assert.equal(broken.errors[0].field, 'stepTimeline');
});
