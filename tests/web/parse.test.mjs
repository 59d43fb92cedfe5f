// What a learner types into a number field, read without locale surprises.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseInteger, parseQuantity } from '../../build/web-units/parse.mjs';

const value = (text, quantity) => {
  const result = parseQuantity(text, quantity);
  assert.ok(result.ok, `expected ${text} to parse, got ${result.message}`);
  return result.value;
};

test('counts accept suffixes, words, scientific notation and thousands separators', () => {
  assert.equal(value('70B'), 70e9);
  assert.equal(value('70 billion'), 70e9);
  assert.equal(value('15.6T'), 15.6e12);
  assert.equal(value('15.6e12'), 15.6e12);
  assert.equal(value('16,384'), 16384);
  assert.equal(value('16_384'), 16384);
  assert.equal(value('3.6 × 10^25'), 3.6e25);
  assert.equal(value('2k'), 2000);
  assert.equal(value('  7e9 '), 7e9);
});

test('bytes accept decimal and binary units', () => {
  assert.equal(value('1.1 TB', 'bytes'), 1.1e12);
  assert.equal(value('80GB', 'bytes'), 80e9);
  assert.equal(value('1,120 GB', 'bytes'), 1120e9);
  assert.equal(value('1 GiB', 'bytes'), 2 ** 30);
});

test('fractions accept percentages', () => {
  assert.equal(value('40%', 'fraction'), 0.4);
  assert.equal(value('0.4', 'fraction'), 0.4);
});

test('a decimal comma is refused rather than misread as thousands', () => {
  const result = parseQuantity('1,5');
  assert.equal(result.ok, false);
  assert.match(result.message, /decimals/);
});

test('unknown units and non-numbers are errors with a message', () => {
  for (const text of ['70 bananas', 'abc', '', '--3', '1.2.3']) {
    const result = parseQuantity(text);
    assert.equal(result.ok, false, text);
    assert.ok(result.message.length > 0);
  }
});

test('integers are checked for wholeness and range', () => {
  assert.deepEqual(parseInteger('16,384', 1, 100000), { ok: true, value: 16384 });
  assert.equal(parseInteger('2.5', 1, 100).ok, false);
  assert.match(parseInteger('0', 1, 100).message, /at least 1/);
  assert.match(parseInteger('200k', 1, 100000).message, /at most 100000/);
});
