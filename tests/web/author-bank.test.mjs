// An author's own bank (docs/quiz.md, "Your own bank"), through the real wasm engine: its order,
// draw and pass mark as the engine read them, items with problems of their own left out, the
// questions each learner is asked, and a bank that cannot be read named with the reason.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildQuizUnits, loadEngine, repoRoot } from './quiz-build.mjs';

const units = await buildQuizUnits('author-bank');
const { prepareBank } = await import(units.bank);
const { selectItems } = await import(units.state);
const { fetchBank, loadAuthorBank, readBankText } = await import(units.source);
const engine = await loadEngine();
const skip = engine ? false : 'build/wasm is missing: bash scripts/build.sh';
const example = JSON.parse(readFileSync(join(repoRoot, 'docs', 'examples', 'author-bank.json'), 'utf8'));
const clone = (value) => JSON.parse(JSON.stringify(value));

test('the worked example is usable whole, with the order, draw and pass mark it sets', { skip }, () => {
  const prepared = prepareBank(engine, example);
  assert.deepEqual(prepared.problems, []);
  assert.equal(prepared.items.length, 4);
  assert.deepEqual(prepared.settings, { order: 'shuffled', draw: 3, passMark: 0.7 });
});

test('an item the engine can ask but finds fault with is left out, named with its field', { skip }, () => {
  // The explanation no longer states the answer: quizInstance computes it, the bank check does not accept it.
  const bank = clone(example);
  bank.items[0].explanation = 'Multiply it out.';
  const prepared = prepareBank(engine, bank);
  assert.deepEqual(prepared.skipped, ['gpu-hours-to-train']);
  assert.deepEqual(
    prepared.items.map((item) => item.id),
    ['more-gpus-same-hours', 'utilization-meaning', 'flops-order-of-magnitude'],
  );
  assert.ok(prepared.problems.some((problem) => problem.item === 'gpu-hours-to-train' && problem.field === 'explanation'));
});

test('a refused setting is named and its default used', { skip }, () => {
  const bank = clone(example);
  bank.order = 'random';
  bank.pass_mark = 70;
  const prepared = prepareBank(engine, bank);
  assert.deepEqual(prepared.settings, { order: 'fixed', draw: 3, passMark: null });
  assert.deepEqual(prepared.problems.map((problem) => problem.field).sort(), ['order', 'pass_mark']);
  assert.equal(prepared.items.length, 4);
});

test('a draw picks that many questions per learner, the same ones on every visit', () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f'];
  const fixed = { order: 'fixed', draw: 3 };
  for (const learner of [1, 2, 77, 123456]) {
    const drawn = selectItems(items, fixed, learner);
    assert.equal(drawn.length, 3);
    assert.equal(new Set(drawn).size, 3);
    assert.deepEqual(drawn, [...drawn].sort(), 'a fixed order keeps the bank order');
    assert.deepEqual(selectItems(items, fixed, learner), drawn);
  }
  const draws = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((learner) => selectItems(items, fixed, learner).join('')));
  assert.ok(draws.size > 1, 'learners are drawn different questions');
  assert.deepEqual(selectItems(items, { order: 'fixed', draw: null }, 5), items);
  assert.deepEqual(selectItems(items, { order: 'fixed', draw: 99 }, 5), items);
});

test("a shuffled order is each learner's own and asks every question once", () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f'];
  const orders = [1, 2, 3, 4, 5].map((learner) => selectItems(items, { order: 'shuffled', draw: null }, learner));
  for (const order of orders) assert.deepEqual([...order].sort(), items);
  assert.ok(orders.some((order) => order.join('') !== items.join('')));
  assert.deepEqual(selectItems(items, { order: 'shuffled', draw: null }, 3), orders[2]);
});

test('a bank that is not JSON, empty or unreachable is named, with why, and no bank', async () => {
  const notJson = readBankText('{"version": 1,', 'unit-3.json');
  assert.equal(notJson.bank, null);
  assert.match(
    notJson.problem,
    /^The question bank “unit-3\.json” is not valid JSON \(.+\), so the built-in questions are shown instead\.$/,
  );
  assert.match(readBankText('  ', 'x.json').problem, /“x\.json” is empty/);
  const missing = await fetchBank('banks/missing.json', 'https://course.example/unit/', async () => new Response('nope', { status: 404 }));
  assert.equal(missing.bank, null);
  assert.match(missing.problem, /“banks\/missing\.json” could not be loaded \(HTTP 404\)/);
  const offline = await fetchBank('bank.json', 'https://course.example/', async () => {
    throw new TypeError('Failed to fetch');
  });
  assert.match(offline.problem, /connect-src 'self'/);
});

test("only the page's own site is asked for a bank", async () => {
  let asked = 0;
  const fetcher = async () => {
    asked += 1;
    return new Response('{}');
  };
  const elsewhere = await fetchBank('https://other.example/bank.json', 'https://course.example/unit/', fetcher);
  assert.match(elsewhere.problem, /another site/);
  const fromFile = await fetchBank('bank.json', 'file:///course/page.html', fetcher);
  assert.match(fromFile.problem, /opened as a file/);
  assert.equal(asked, 0);
  const here = await fetchBank('/banks/mine.json', 'https://course.example/unit/', async (url) => {
    asked += 1;
    assert.equal(url, 'https://course.example/banks/mine.json');
    return new Response('{"version": 1}');
  });
  assert.deepEqual(here, { bank: { version: 1 }, name: '/banks/mine.json', problem: null });
});

test('the bank address wins over a script child; neither means the built-in bank, silently', async () => {
  const fetcher = async () => new Response('{"from": "file"}');
  assert.deepEqual((await loadAuthorBank({ url: 'b.json', inline: '{"from": "script"}' }, 'https://c.example/', fetcher)).bank, {
    from: 'file',
  });
  assert.deepEqual((await loadAuthorBank({ url: null, inline: '{"from": "script"}' }, 'https://c.example/', fetcher)).bank, {
    from: 'script',
  });
  assert.equal(await loadAuthorBank({ url: null, inline: null }, 'https://c.example/', fetcher), null);
});
