// Display formatting: units chosen, digits rounded, never a new quantity derived.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  formatBytes, formatCount, formatDuration, formatEnergy, formatFlopsRate, formatInteger, formatNumber,
  formatPercent, formatRatio, formatScientific, splitScientific, superscript, SECONDS_PER,
} from '../../build/web-units/format.mjs';

test('bytes are shown in decimal units with three significant digits', () => {
  assert.equal(formatBytes(141_107_412_992), '141 GB');
  assert.equal(formatBytes(1_128_859_303_936), '1.13 TB');
  assert.equal(formatBytes(80e9), '80 GB');
  assert.equal(formatBytes(1_342_177_280), '1.34 GB');
  assert.equal(formatBytes(512e6), '512 MB');
  assert.equal(formatBytes(0), '0 B');
});

test('a byte count that rounds up to the next unit is shown in that unit', () => {
  assert.equal(formatBytes(999.6e9), '1 TB');
});

test('bytes are never shown as binary units: 2^30 bytes is 1.07 GB', () => {
  assert.equal(formatBytes(2 ** 30), '1.07 GB');
});

test('training FLOPs use the lesson notation with superscript exponents', () => {
  assert.equal(formatScientific(3.798787719168e25), '3.8 × 10²⁵');
  assert.equal(formatScientific(6.34983358464e24), '6.3 × 10²⁴');
  assert.equal(formatScientific(3.6e25, 2), '3.6 × 10²⁵');
  assert.deepEqual(splitScientific(3.14e21, 3), { mantissa: '3.14', exponent: 21 });
});

test('superscript handles negative exponents', () => {
  assert.equal(superscript(-12), '⁻¹²');
  assert.equal(superscript(25), '²⁵');
});

test('counts read as words, or short letters, at three significant digits', () => {
  assert.equal(formatCount(70_553_706_496), '70.6 billion');
  assert.equal(formatCount(405_853_388_800, { short: true }), '406B');
  assert.equal(formatCount(15.6e12), '15.6 trillion');
  assert.equal(formatCount(16384), '16,384');
  assert.equal(formatCount(26_673_882.98), '26.7 million');
  assert.equal(formatCount(999_960_000), '1 billion');
});

test('numbers use a fixed locale: comma thousands, point decimals', () => {
  assert.equal(formatNumber(1234567, 7), '1,234,567');
  assert.equal(formatNumber(0.0123, 2), '0.012');
  assert.equal(formatInteger(16384), '16,384');
});

test('durations use the largest sensible unit', () => {
  assert.equal(formatDuration(42), '42 seconds');
  assert.equal(formatDuration(5.5 * 3600), '5.5 hours');
  assert.equal(formatDuration(5_860_960.6), '67.8 days');
  assert.equal(formatDuration(96_025_978_745), '3,040 years');
  assert.equal(formatDuration(SECONDS_PER.day), '24 hours');
  assert.equal(formatDuration(SECONDS_PER.year), '1 year');
});

test('astronomical durations switch to scientific notation', () => {
  assert.match(formatDuration(1e20), /^3\.2 × 10¹² years$/);
});

test('percentages, ratios, rates and energy', () => {
  assert.equal(formatPercent(0.4), '40%');
  assert.equal(formatPercent(0.0833333), '8.3%');
  assert.equal(formatPercent(0.3333333), '33%');
  assert.equal(formatRatio(8), '8×');
  assert.equal(formatFlopsRate(989e12), '989 TFLOP/s');
  assert.equal(formatFlopsRate(2.25e15), '2.25 PFLOP/s');
  assert.equal(formatEnergy(3.6e12), '1 GWh');
});

test('non-finite input never prints NaN or Infinity', () => {
  for (const format of [formatBytes, formatCount, formatDuration, formatPercent, formatScientific, formatRatio]) {
    assert.equal(format(Number.NaN), '–');
    assert.equal(format(Infinity), '–');
  }
});
