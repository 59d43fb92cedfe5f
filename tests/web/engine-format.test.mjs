// The shared table of expected quantity outputs (tests/engine/format_cases.inc), checked through
// the wasm module the page loads, by the functions the page calls. Natively and in wasm the same
// table is checked by tests/engine/format_cases_test.cpp.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineModule as engine, repoRoot } from './wasm-engine.mjs';

// One case per line: NAME(arguments), arguments being C string literals (JSON-compatible: only
// \u escapes) and numbers in C notation (JavaScript's too; NAN is NaN, INFINITY Infinity).
function readCases(file = 'format_cases.inc') {
  const text = readFileSync(join(repoRoot, 'tests', 'engine', file), 'utf8');
  const cases = [];
  const constants = { NaN, Infinity };
  for (const line of text.split('\n')) {
    const match = /^(FORMAT_CASE|TICK_CASE|READ_CASE|READ_ERROR)\((.*)\)\s*$/.exec(line);
    if (!match) continue;
    const args = JSON.parse(`[${match[2].replace(/\bNAN\b/g, '"NaN"').replace(/\bINFINITY\b/g, '"Infinity"')}]`).map((arg) =>
      arg in constants ? constants[arg] : arg,
    );
    cases.push({ name: match[1], args, line });
  }
  return cases;
}

const cases = readCases();

test('the shared table holds cases of every sort', () => {
  for (const name of ['FORMAT_CASE', 'TICK_CASE', 'READ_CASE', 'READ_ERROR']) {
    assert.ok(cases.filter((c) => c.name === name).length >= 5, name);
  }
});

test('formatQuantity writes every figure in the shared table as the table says', () => {
  for (const {
    args: [figure, value, significant, expected],
    line,
  } of cases.filter((c) => c.name === 'FORMAT_CASE')) {
    assert.equal(engine.formatQuantity(value, figure, significant), expected, line);
  }
});

test('formatTick writes every tick in the shared table as the table says', () => {
  for (const {
    args: [figure, value, expected],
    line,
  } of cases.filter((c) => c.name === 'TICK_CASE')) {
    assert.equal(engine.formatTick(value, figure), expected, line);
  }
});

test('readQuantity reads every typed text in the shared table as its value', () => {
  for (const {
    args: [kind, text, value],
    line,
  } of cases.filter((c) => c.name === 'READ_CASE')) {
    const reading = engine.readQuantity(text, kind);
    assert.equal(reading.ok, true, `${line}: ${reading.error}`);
    assert.ok(Math.abs(reading.value - value) <= 1e-12 * Math.abs(value), `${line}: ${reading.value}`);
    assert.equal(reading.error, '');
    assert.notEqual(reading.display, '');
  }
});

test('readQuantity refuses every text the shared table refuses, with its words', () => {
  for (const {
    args: [kind, text, words],
    line,
  } of cases.filter((c) => c.name === 'READ_ERROR')) {
    const reading = engine.readQuantity(text, kind);
    assert.equal(reading.ok, false, line);
    assert.ok(reading.error.includes(words), `${line}: ${reading.error}`);
  }
});

test('readQuantity names an unknown kind instead of guessing one', () => {
  const reading = engine.readQuantity('5', 'constructor');
  assert.equal(reading.ok, false);
  assert.match(reading.error, /unknown quantity kind/);
});

test('formatQuantity marks an unknown figure name with a question mark', () => {
  assert.equal(engine.formatQuantity(5, 'toString', 0), '?');
});

test('fieldLimits gives the GPU count the range the engine validates', () => {
  const limits = JSON.parse(engine.fieldLimits());
  assert.deepEqual(limits['parallel.gpus'], {
    min: 1,
    max: 1e7,
    kind: 'gpus',
    integer: true,
    slider: { scale: 'powers_of_two', min: 1, max: 1e5, stops: 0 },
  });
  const tooMany = JSON.parse(engine.estimate(JSON.stringify({ parallel: { gpus: 2e7 } })));
  assert.deepEqual(tooMany.errors, [{ field: 'parallel.gpus', message: 'must be between 1 and 10 million GPUs' }]);
  assert.equal(engine.fieldError('parallel.gpus', 2e7), 'must be between 1 and 10 million GPUs');
  assert.equal(engine.fieldError('parallel.gpus', 2048), '');
});

test('readField reads a typed field in its kind and checks its limits', () => {
  const memory = engine.readField('hardware.memory_bytes', '80 GB');
  assert.equal(memory.ok, true);
  assert.equal(memory.value, 80e9);
  assert.equal(memory.display, '80 GB');
  const tooMany = engine.readField('parallel.gpus', '20 million');
  assert.equal(tooMany.ok, false);
  assert.equal(tooMany.error, 'Must be between 1 and 10 million GPUs.');
  assert.equal(engine.readField('parallel.gpus', '2.5').error, 'Must be a whole number.');
});

test('numberFormats labels every format with the bytes one value takes', () => {
  const formats = JSON.parse(engine.numberFormats());
  assert.deepEqual(
    formats.find((f) => f.id === 'bf16'),
    { id: 'bf16', name: 'BF16', bytes: 2, label: 'BF16 (2 bytes)' },
  );
  assert.equal(formats.find((f) => f.id === 'int4').label, 'INT4 (0.5 bytes)');
});

test('the estimate writes the bytes-per-parameter sum for the optimizer on screen', () => {
  const sgd = JSON.parse(engine.estimate(JSON.stringify({ training: { optimizer: 'sgd_momentum' } })));
  assert.equal(sgd.training.bytes_per_param_sum, '2 + 2 + 4 + 4 = 12');
  const fp32 = JSON.parse(engine.estimate(JSON.stringify({ training: { precision: 'fp32' } })));
  assert.equal(fp32.training.bytes_per_param_sum, '4 + 4 + 4 + 4 = 16');
});

test('timeAxisMarks gives the time axis its marks, labelled by the formatter', () => {
  const marks = JSON.parse(engine.timeAxisMarks());
  assert.deepEqual(marks[0], { seconds: 1, label: '1 second' });
  assert.equal(marks.find((m) => m.label === '1 year').seconds, 365.25 * 86400);
  assert.equal(marks.at(-1).label, '100 million years');
  for (const mark of marks) assert.equal(engine.formatTick(mark.seconds, 'duration'), mark.label);
});

// ---- German and Spanish (format_cases_de.inc, format_cases_es.inc) --------------------------
// The page sets its widget's language before each call (setLanguage, from the bindings) and hands
// the engine its sentences (loadMessages). Without those bindings there is nothing to check here.
const languageBindings = typeof engine.setLanguage === 'function' && typeof engine.loadMessages === 'function';
const noLanguageBindings = languageBindings ? false : 'the bindings have no setLanguage/loadMessages';

function inLanguage(tag, check) {
  assert.equal(engine.setLanguage(tag), true);
  const catalogue = readFileSync(join(repoRoot, 'i18n', tag, 'engine-quantity.json'), 'utf8');
  assert.equal(engine.loadMessages(tag, catalogue), '');
  try {
    check();
  } finally {
    engine.setLanguage('en');
  }
}

for (const tag of ['de', 'es']) {
  const languageCases = readCases(`format_cases_${tag}.inc`);

  test(`[${tag}] the language's table holds cases of every sort`, () => {
    for (const name of ['FORMAT_CASE', 'TICK_CASE', 'READ_CASE', 'READ_ERROR']) {
      assert.ok(languageCases.filter((c) => c.name === name).length >= 5, name);
    }
  });

  test(`[${tag}] the module writes, ticks, reads and refuses every case of the language's table`, { skip: noLanguageBindings }, () => {
    inLanguage(tag, () => {
      for (const { name, args, line } of languageCases) {
        if (name === 'FORMAT_CASE') assert.equal(engine.formatQuantity(args[1], args[0], args[2]), args[3], line);
        if (name === 'TICK_CASE') assert.equal(engine.formatTick(args[1], args[0]), args[2], line);
        if (name === 'READ_CASE') {
          const reading = engine.readQuantity(args[1], args[0]);
          assert.equal(reading.ok, true, `${line}: ${reading.error}`);
          assert.ok(Math.abs(reading.value - args[2]) <= 1e-12 * Math.abs(args[2]), `${line}: ${reading.value}`);
        }
        if (name === 'READ_ERROR') {
          const reading = engine.readQuantity(args[1], args[0]);
          assert.equal(reading.ok, false, line);
          assert.ok(reading.error.includes(args[2]), `${line}: ${reading.error}`);
        }
      }
    });
  });

  // An oracle the engine does not share: ICU's CLDR data in node's Intl.NumberFormat.
  test(
    `[${tag}] plain numbers, whole numbers and percentages are written as CLDR (Intl.NumberFormat) writes them`,
    { skip: noLanguageBindings },
    () => {
      const values = [
        0.00123, 0.0456, 0.5, 1, 8.25, 42, 999.6, 1638, 1638.4, 16384, 123456.7, 999999, 1234567.4, 98765432.1, 4.2e13, -1638, -0.5,
      ];
      inLanguage(tag, () => {
        for (const value of values) {
          const significant = new Intl.NumberFormat(tag, { maximumSignificantDigits: 3 }).format(value);
          assert.equal(engine.formatQuantity(value, 'plain', 3), significant, `plain ${value}`);
          const whole = new Intl.NumberFormat(tag, { maximumFractionDigits: 0 }).format(value);
          if (Math.abs(value) >= 0.5) assert.equal(engine.formatQuantity(value, 'integer', 0), whole, `integer ${value}`);
          const percent = new Intl.NumberFormat(tag, { style: 'percent', maximumSignificantDigits: 3 }).format(value);
          if (Math.abs(value) < 1e6) assert.equal(engine.formatQuantity(value, 'percent', 3), percent, `percent ${value}`);
        }
        assert.equal(
          engine.formatQuantity(1234567, 'money', 0),
          new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', notation: 'compact', maximumSignificantDigits: 3 }).format(
            1234567,
          ),
        );
        assert.equal(
          engine.formatQuantity(1234, 'money', 0),
          new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(1234),
        );
      });
    },
  );

  test(`[${tag}] the time axis is marked in the language, each mark the tick of its seconds`, { skip: noLanguageBindings }, () => {
    inLanguage(tag, () => {
      const marks = JSON.parse(engine.timeAxisMarks());
      assert.equal(marks.at(-1).label, tag === 'de' ? '100 Millionen Jahre' : '100 millones de a\u00F1os');
      for (const mark of marks) assert.equal(engine.formatTick(mark.seconds, 'duration'), mark.label);
    });
  });
}
