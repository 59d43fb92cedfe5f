// Where quiz progress is kept (web/src/quiz/storage.ts): localStorage when it works, memory when
// it throws (sandboxed iframes, file://, blocked cookies, a full quota), and never an exception
// into the quiz, whatever a host's adapter does.
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildQuizUnits } from './quiz-build.mjs';

const units = await buildQuizUnits('storage');
const { storageKey, localStorageAdapter, guardStorage, memoryStorage, legacyKeys } = await import(units.storage);

function fakeLocalStorage() {
  const map = new Map();
  return {
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
    key: (index) => [...map.keys()][index] ?? null,
    get length() {
      return map.size;
    },
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
  const storage = guardStorage(
    localStorageAdapter('k', () => {
      throw new DOMException('The document is sandboxed', 'SecurityError');
    }),
  );
  assert.equal(storage.load(), null);
  assert.equal(storage.persistent, false);
  assert.doesNotThrow(() => storage.save('{"v":1}'));
  assert.equal(storage.load(), '{"v":1}', 'the visit keeps its progress in memory');
});

test('a full quota on save is swallowed and reported as not persistent', () => {
  const fake = fakeLocalStorage();
  fake.setItem = () => {
    throw new DOMException('quota', 'QuotaExceededError');
  };
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

// ── Keys that stay put, and states shared between tabs and widgets (issue 10, cases 1 and 2) ─

/** Stands in for the window: where other tabs' `storage` events arrive. */
function fakeWindow() {
  const listeners = new Set();
  return {
    addEventListener: (type, listener) => type === 'storage' && listeners.add(listener),
    removeEventListener: (type, listener) => listeners.delete(listener),
    fire: (key) => {
      for (const listener of listeners) listener({ key });
    },
    listeners,
  };
}

test('only the earlier version’s position keys of the same bank count as its legacy keys', () => {
  assert.deepEqual(
    legacyKeys('b1', [
      'trainscope-quiz:b1',
      'trainscope-quiz:b1:position-0',
      'trainscope-quiz:b1:position-12',
      'trainscope-quiz:b1:unit-3',
      'trainscope-quiz:b2:position-0',
      'trainscope-quiz:b1:position-x',
    ]),
    ['trainscope-quiz:b1:position-0', 'trainscope-quiz:b1:position-12'],
  );
});

test('an id-less quiz reads the earlier version’s position keys, and removes them once its merge is saved', () => {
  const fake = fakeLocalStorage();
  fake.setItem('trainscope-quiz:b1:position-0', 'first widget');
  fake.setItem('trainscope-quiz:b1:position-1', 'second widget');
  fake.setItem('trainscope-quiz:b1:unit-3', 'a widget with an id');
  const storage = localStorageAdapter(storageKey('b1'), () => fake, { legacyOf: 'b1', events: null });
  assert.deepEqual(storage.loadLegacy().sort(), ['first widget', 'second widget']);
  storage.save('merged');
  assert.deepEqual([...fake.map.keys()].sort(), ['trainscope-quiz:b1', 'trainscope-quiz:b1:unit-3']);
  assert.equal(fake.getItem('trainscope-quiz:b1'), 'merged');
});

test('a quiz with an id has no legacy keys: its key is the one earlier versions used', () => {
  const fake = fakeLocalStorage();
  fake.setItem('trainscope-quiz:b1:position-0', 'first widget');
  const storage = localStorageAdapter(storageKey('b1', 'unit-3'), () => fake, { events: null });
  assert.deepEqual(storage.loadLegacy(), []);
});

test('another tab’s save under the same key is heard; a save under another key is not', () => {
  const events = fakeWindow();
  const storage = guardStorage(localStorageAdapter('k', () => fakeLocalStorage(), { events }));
  let heard = 0;
  const stop = storage.subscribe(() => {
    heard += 1;
  });
  events.fire('other');
  assert.equal(heard, 0);
  events.fire('k');
  assert.equal(heard, 1);
  events.fire(null);
  assert.equal(heard, 2, 'storage cleared in another tab');
  stop();
  events.fire('k');
  assert.equal(heard, 2, 'stopped listening');
});

test('two quizzes of one page with one key hear each other’s saves but not their own', () => {
  const fake = fakeLocalStorage();
  const first = guardStorage(localStorageAdapter('shared', () => fake, { events: null }));
  const second = guardStorage(localStorageAdapter('shared', () => fake, { events: null }));
  const heard = { first: 0, second: 0 };
  const stops = [
    first.subscribe(() => {
      heard.first += 1;
    }),
    second.subscribe(() => {
      heard.second += 1;
    }),
  ];
  first.save('a');
  assert.deepEqual(heard, { first: 0, second: 1 });
  second.save('b');
  assert.deepEqual(heard, { first: 1, second: 1 });
  for (const stop of stops) stop();
});

test('the guarded storage reads the store again on every load, so another tab’s save is seen', () => {
  const fake = fakeLocalStorage();
  const storage = guardStorage(localStorageAdapter('k', () => fake, { events: null }));
  storage.save('mine');
  fake.setItem('k', 'another tab');
  assert.equal(storage.load(), 'another tab');
});

test('a host adapter whose legacy or subscribe throws cannot break the quiz', () => {
  const storage = guardStorage({
    load: () => null,
    save: () => {},
    loadLegacy: () => {
      throw new Error('x');
    },
    subscribe: () => {
      throw new Error('y');
    },
  });
  assert.deepEqual(storage.loadLegacy(), []);
  assert.doesNotThrow(() => storage.subscribe(() => {})());
});
