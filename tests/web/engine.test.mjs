// The real wasm engine under node, through the same JSON interface the page uses: the page's
// config reader must give the engine what its own presets hold.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseHfConfig } from '../../build/web-units/hf-config.mjs';
import { configs } from './configs.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineModule as engine, repoRoot } from './wasm-engine.mjs';

const estimate = (scenario) => JSON.parse(engine.estimate(JSON.stringify(scenario)));
const presets = JSON.parse(engine.presets());

for (const [key, presetId] of [
  ['llama3_8b', 'llama3-8b'],
  ['gpt2', 'gpt2-124m'],
  ['mixtral', 'mixtral-8x7b'],
]) {
  test(`the ${key} config.json gives the same parameter count as the engine's ${presetId} preset`, () => {
    const { architecture, errors } = parseHfConfig(JSON.stringify(configs[key]), engine);
    assert.deepEqual(errors, []);
    const fromConfig = estimate({ model: { architecture } });
    assert.deepEqual(fromConfig.errors, []);
    const preset = presets.find((p) => p.id === presetId);
    assert.ok(preset, `engine has preset ${presetId}`);
    assert.equal(fromConfig.params, preset.params);
    assert.equal(fromConfig.active_params, preset.active_params);
  });
}

test('every preset the page lists has an architecture the config reader’s fields describe', () => {
  const fields = [
    'layers',
    'hidden',
    'heads',
    'kv_heads',
    'mlp',
    'vocab',
    'gated_mlp',
    'tied_embeddings',
    'learned_positions',
    'biases',
    'dropout',
    'experts',
    'experts_per_token',
  ];
  for (const preset of presets) for (const field of fields) assert.ok(field in preset.architecture, `${preset.id}.${field}`);
});

test('the estimate carries every field the page reads', () => {
  const result = estimate({});
  assert.deepEqual(result.errors, []);
  for (const path of [
    'inference.weights',
    'inference.kv_cache',
    'inference.total',
    'inference.min_gpus',
    'inference.bytes_per_param',
    'training.per_gpu.total',
    'training.per_gpu.activations',
    'training.per_gpu.logits',
    'training.model_states.optimizer_states',
    'training.bytes_per_param.total',
    'training.activations_without_recompute',
    'training.activations_per_layer',
    'training.data_parallel',
    'training.fits',
    'training.min_gpus',
    'ratio_training_to_inference',
    'compute.flops',
    'compute.hardware_flops',
    'compute.recompute_overhead',
    'compute.seconds',
    'compute.seconds_on_one_gpu',
    'compute.gpu_hours',
    'compute.mfu',
    'compute.energy_joules',
    'compute.time_over_gpus',
    'compute.time_references',
    'compute.lesson_cluster_gpus',
    'scenario.parallel.gpus',
    'gpu.memory_bytes',
  ]) {
    const value = path.split('.').reduce((node, key) => node?.[key], result);
    assert.notEqual(value, undefined, path);
  }
});

test('engine errors name the scenario field, which the page uses to place them', () => {
  const result = estimate({ parallel: { gpus: 3, tensor: 2 } });
  assert.equal(result.errors[0].field, 'parallel.gpus');
});

test('stepTimeline, through the wasm binding, peaks at the estimate’s per-GPU total and names bad fields', () => {
  const scenario = { model: { preset: 'llama3-8b' }, training: { recompute: 'full' }, parallel: { gpus: 8, zero_stage: 3 } };
  const timeline = JSON.parse(engine.stepTimeline(JSON.stringify(scenario)));
  assert.deepEqual(timeline.errors, []);
  assert.equal(timeline.peak.total, estimate(scenario).training.per_gpu.total);
  assert.equal(timeline.events[timeline.peak_event].held.total, timeline.peak.total);
  assert.ok(timeline.events.some((event) => event.phase === 'gather' && event.held.gathered_weights > 0));
  const bad = JSON.parse(engine.stepTimeline('{"parallel":{"zero_stage":7}}'));
  assert.equal(bad.events, undefined);
  assert.ok(bad.errors.some((error) => error.field === 'parallel.zero_stage'));
});

test('validationSummary, through the wasm binding, gives docs/validation.md’s summary line as numbers', () => {
  const summary = JSON.parse(engine.validationSummary());
  assert.deepEqual(Object.keys(summary).sort(), [
    'median_error',
    'projects',
    'runs_compared',
    'runs_with_peak',
    'verdicts_wrong',
    'worst_error',
  ]);
  for (const value of Object.values(summary)) assert.ok(Number.isFinite(value));
  assert.ok(summary.runs_with_peak <= summary.runs_compared);
  assert.ok(summary.median_error > 0 && summary.median_error <= summary.worst_error);
  // The page's line quotes the median: docs/validation.md's Results table holds the same figure.
  const results = readFileSync(join(repoRoot, 'docs', 'validation.md'), 'utf8');
  assert.ok(results.includes(`**${(100 * summary.median_error).toFixed(1)}%**`), 'the Results table’s bold median');
});
