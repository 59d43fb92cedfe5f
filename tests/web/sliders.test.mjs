// Slider scales map positions to inputs and back.
import test from 'node:test';
import assert from 'node:assert/strict';
import { logScale, powersOfTwoUpTo, stopScale } from '../../build/web-units/sliders.mjs';

test('a log scale reaches both ends exactly', () => {
  const scale = logScale(1e8, 2e12, 20);
  assert.equal(scale.valueAt(0), 1e8);
  assert.equal(scale.valueAt(scale.steps), 2e12);
});

test('a log scale moves by a constant factor per step and stops at round values', () => {
  const scale = logScale(1e9, 1e14, 20);
  for (let position = 1; position < scale.steps; position += 1) {
    const value = scale.valueAt(position);
    assert.equal(Number(value.toPrecision(2)), value, `${value} is round`);
    assert.ok(value > scale.valueAt(position - 1), 'increasing');
  }
});

test('positionOf finds the stop for a value and clamps outside values', () => {
  const scale = logScale(1e8, 2e12, 20);
  assert.equal(scale.valueAt(scale.positionOf(7e10)), 7.1e10);
  assert.equal(scale.positionOf(1), 0);
  assert.equal(scale.positionOf(1e15), scale.steps);
});

test('GPU counts move through powers of two and end at 100,000', () => {
  const stops = powersOfTwoUpTo(100000);
  assert.equal(stops[0], 1);
  assert.equal(stops.at(-2), 65536);
  assert.equal(stops.at(-1), 100000);
  const scale = stopScale(stops);
  assert.equal(scale.valueAt(scale.positionOf(16384)), 16384);
  assert.equal(scale.valueAt(scale.positionOf(2500)), 2048, 'nearest on a log scale');
  assert.equal(scale.valueAt(scale.positionOf(3000)), 4096, '3000 is past √(2048·4096)');
});
