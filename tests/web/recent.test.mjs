// The page's memory of the engine's recent answers (web/src/widget/recent.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import { RecentResults } from '../../build/web-units/recent.mjs';

test('a scenario asked again is answered from memory, without asking the engine', () => {
  const recent = new RecentResults(2);
  let asked = 0;
  const answer = (key) =>
    recent.get(key, () => {
      asked += 1;
      return { key, asked };
    });
  const first = answer('a');
  assert.equal(answer('a'), first, 'the same object comes back');
  assert.equal(asked, 1);
});

test('only the most recently used answers are kept', () => {
  const recent = new RecentResults(2);
  const asked = [];
  const answer = (key) =>
    recent.get(key, () => {
      asked.push(key);
      return key.toUpperCase();
    });
  answer('a');
  answer('b');
  answer('a'); // a is now the most recent: b goes first
  answer('c');
  answer('a');
  answer('b');
  assert.deepEqual(asked, ['a', 'b', 'c', 'b']);
});
