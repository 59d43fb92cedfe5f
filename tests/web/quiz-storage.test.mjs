// Where quiz progress is kept (web/src/quiz/storage.ts): localStorage when it works, memory when
// it throws (sandboxed iframes, file://, blocked cookies, a full quota), and never an exception
// into the quiz, whatever a host's adapter does.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildQuizUnits } from './quiz-build.mjs';

const units = await buildQuizUnits('storage');
const { storageKey, localStorageAdapter, guardStorage, memoryStorage } = await import(units.storage);

function fakeLocalStorage() {
  const map = new Map();
  return {
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
    map,
  };
}

test('the key is namespaced by bank id and, when given, the instance key', () => {
  assert.equal(storageKey('1a2b3c4d'), 'trainscope-quiz:1a2b3c4d');
  assert.equal(storageKey('1a2b3c4d', 'unit-3'), 'trainscope-quiz:1a2b3c4d:unit-3');
});

test('the localStorage adapter saves and loads under its key only', () => {
  const fake = fakeLocalStorage();
  const storage = localStorageAdapter('trainscope-quiz:x', () => fake);
  assert.equal(storage.load(), null);
  storage.save('{"v":1}');
  assert.equal(storage.load(), '{"v":1}');
  assert.deepEqual([...fake.map.keys()], ['trainscope-quiz:x']);
});

test('a localStorage getter that throws leaves the guarded storage working in memory', () => {
  const storage = guardStorage(localStorageAdapter('k', () => { throw new DOMException('The document is sandboxed', 'SecurityError'); }));
  assert.equal(storage.load(), null);
  assert.equal(storage.persistent, false);
  assert.doesNotThrow(() => storage.save('{"v":1}'));
  assert.equal(storage.load(), '{"v":1}', 'the visit keeps its progress in memory');
});

test('a full quota on save is swallowed and reported as not persistent', () => {
  const fake = fakeLocalStorage();
  fake.setItem = () => { throw new DOMException('quota', 'QuotaExceededError'); };
  const storage = guardStorage(localStorageAdapter('k', () => fake));
  assert.equal(storage.load(), null);
  assert.equal(storage.persistent, true, 'reading worked');
  storage.save('state');
  assert.equal(storage.persistent, false);
  assert.equal(storage.load(), 'state');
});

test('no localStorage at all (node, old embeds) behaves like a blocked one', () => {
  const storage = guardStorage(localStorageAdapter('k', () => undefined));
  assert.equal(storage.load(), null);
  storage.save('s');
  assert.equal(storage.persistent, false);
});

test('a host adapter that returns something other than a string is read as nothing saved', () => {
  for (const value of [undefined, 42, {}, ['x']]) {
    const storage = guardStorage({ load: () => value, save: () => {} });
    assert.equal(storage.load(), null, String(value));
    assert.equal(storage.persistent, true);
  }
});

test('memory storage keeps what was saved', () => {
  const storage = memoryStorage('start');
  assert.equal(storage.load(), 'start');
  storage.save('next');
  assert.equal(storage.load(), 'next');
});
