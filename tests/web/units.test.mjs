// The page's units module (web/src/engine/units.ts) bound to the real wasm engine: every figure the
// page writes and every field it reads is the engine's, so the disagreements issue 9 found
// (one quantity written two ways, "70B" read two ways, limits kept twice) cannot come back.
import test from 'node:test';
import assert from 'node:assert/strict';
import { unitsFor } from '../../build/web-units/units.mjs';
import { fieldScale } from '../../build/web-units/sliders.mjs';
import { engineModule as module } from './wasm-engine.mjs';

// The members of engine.ts's Engine that units.ts uses, mapped to the module as wrap() maps them.
const units = unitsFor({
  format: (value, figure, significantFigures = 0) => module.formatQuantity(value, figure, significantFigures),
  readField: (field, text) => module.readField(field, text),
  timeAxisMarks: JSON.parse(module.timeAxisMarks()),
  numberFormats: JSON.parse(module.numberFormats()),
  fieldLimits: JSON.parse(module.fieldLimits()),
});

const DAY = 86_400;

test('a figure on the page is the engine formatter’s text for it', () => {
  assert.equal(units.formatBytes(1_128_859_303_936), module.formatQuantity(1_128_859_303_936, 'bytes', 0));
  assert.equal(units.formatDuration(400 * DAY), module.formatQuantity(400 * DAY, 'duration', 0));
  assert.equal(units.formatFlopsRate(989e12), module.formatQuantity(989e12, 'flop_rate', 0));
  assert.equal(units.formatCount(70.6e9), module.formatQuantity(70.6e9, 'count', 0));
});

test('999.6 GB is written as 1 TB, not 1,000 GB', () => {
  assert.equal(units.formatBytes(999.6e9), '1 TB');
});

test('a thousand bytes is kB, the one spelling the engine uses', () => {
  assert.match(units.formatBytes(1500), /kB$/);
});

test('70B is 70 billion in the parameter field', () => {
  const reading = units.readField('model.params', '70B');
  assert.deepEqual(reading, { ok: true, value: 70e9 });
});

test('a typed unit of another kind is refused, naming both kinds', () => {
  const reading = units.readField('model.params', '70 GB');
  assert.equal(reading.ok, false);
  assert.match(reading.message, /memory|bytes/i);
});

test('the GPU memory field reads bytes with their unit', () => {
  assert.deepEqual(units.readField('hardware.memory_bytes', '96 GB'), { ok: true, value: 96e9 });
});

test('"1 2 3" is more than one number, not 123', () => {
  const reading = units.readField('parallel.gpus', '1 2 3');
  assert.equal(reading.ok, false);
  assert.match(reading.message, /more than one/i);
});

test('"5 constructor" names an unknown unit, not a size', () => {
  const reading = units.readField('parallel.gpus', '5 constructor');
  assert.equal(reading.ok, false);
  assert.doesNotMatch(reading.message, /too large/i);
});

test('a field’s limits are the engine’s, written for people', () => {
  const reading = units.readField('parallel.gpus', '20000000');
  assert.equal(reading.ok, false);
  assert.match(reading.message, /10 million/);
  assert.doesNotMatch(reading.message, /e\+/);
  // The page once stopped at 100,000 GPUs while the engine allowed 10 million.
  assert.deepEqual(units.readField('parallel.gpus', '200000'), { ok: true, value: 200000 });
});

test('number formats carry the engine’s bytes per value', () => {
  assert.match(units.numberFormatLabel('bf16'), /2 bytes/);
  assert.match(units.numberFormatLabel('fp32'), /4 bytes/);
});

test('the time axis marks are the engine’s, in increasing order', () => {
  const marks = units.timeAxisMarks();
  assert.ok(marks.length > 5);
  for (let index = 1; index < marks.length; index += 1) assert.ok(marks[index].seconds > marks[index - 1].seconds);
  assert.ok(marks.some((mark) => mark.label === '1 year'));
});

test('every slider spans what the engine says, and every stop is a value the engine accepts', () => {
  const limits = JSON.parse(module.fieldLimits());
  const withSliders = Object.entries(limits).filter(([, limit]) => limit.slider);
  assert.ok(withSliders.length >= 10, "the engine describes the page's sliders");
  for (const [path, limit] of withSliders) {
    const scale = fieldScale(units, path);
    assert.equal(scale.valueAt(0), limit.slider.min, `${path}: first stop`);
    assert.equal(scale.valueAt(scale.steps), limit.slider.max, `${path}: last stop`);
    for (let position = 0; position <= scale.steps; position += 1) {
      const value = scale.valueAt(position);
      assert.equal(module.fieldError(path, value), '', `${path}: stop ${position} (${value}) is refused by the engine`);
      assert.equal(scale.positionOf(value), position, `${path}: stop ${position} maps back to itself`);
    }
  }
});

test('a field the engine gives no slider has none on the page', () => {
  assert.throws(() => fieldScale(units, 'model.architecture.layers'), /no slider range for model.architecture.layers/);
});
