// Plain-data scenario helpers.
import test from 'node:test';
import assert from 'node:assert/strict';
import { deleteField, getField, mergeScenario, scenarioChanges, setField } from '../../build/web-units/scenario.mjs';

const defaults = {
  model: { preset: 'llama3-70b' },
  training: { micro_batch: 1, sequence: 4096, recompute: 'none' },
  parallel: { gpus: 1, tensor: 1, pipeline: 1, zero_stage: 0 },
};

test('overrides are laid over the defaults field by field', () => {
  const merged = mergeScenario(defaults, { parallel: { gpus: 64 } });
  assert.equal(merged.parallel.gpus, 64);
  assert.equal(merged.parallel.tensor, 1);
  assert.equal(defaults.parallel.gpus, 1, 'defaults are not modified');
});

test('the model section is replaced whole, never mixed', () => {
  const merged = mergeScenario(defaults, { model: { params: 7e9 } });
  assert.deepEqual(merged.model, { params: 7e9 });
});

test('changes list only the fields that differ from the defaults', () => {
  const scenario = mergeScenario(defaults, { parallel: { gpus: 8, tensor: 1 }, training: { recompute: 'full' } });
  assert.deepEqual(scenarioChanges(defaults, scenario), { parallel: { gpus: 8 }, training: { recompute: 'full' } });
  assert.deepEqual(scenarioChanges(defaults, defaults), {});
});

test('fields are read and written by the dotted names the engine uses in errors', () => {
  const next = setField({}, 'parallel.zero_stage', 3);
  assert.deepEqual(next, { parallel: { zero_stage: 3 } });
  assert.equal(getField(next, 'parallel.zero_stage'), 3);
  assert.equal(getField(next, 'training.sequence'), undefined);
});

test('deleting the last field of a section removes the section', () => {
  const scenario = { parallel: { gpus: 8 }, training: { tokens: 1e12, sequence: 8192 } };
  assert.deepEqual(deleteField(scenario, 'parallel.gpus'), { training: { tokens: 1e12, sequence: 8192 } });
  assert.deepEqual(deleteField(scenario, 'training.tokens'), { parallel: { gpus: 8 }, training: { sequence: 8192 } });
  assert.deepEqual(deleteField(scenario, 'hardware.gpu'), scenario);
});
