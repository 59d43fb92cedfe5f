// The scenario in the URL hash: round trips, and a hand-edited hash is a message, not a crash.
import test from 'node:test';
import assert from 'node:assert/strict';
import { decodeHash, encodeHash } from '../../build/web-units/hash.mjs';

test('a scenario survives encoding and decoding', () => {
  const scenario = { model: { preset: 'llama3-405b' }, parallel: { gpus: 16384, zero_stage: 3 }, hardware: { utilization: 0.4 } };
  const hash = encodeHash(scenario);
  assert.match(hash, /^#s=/);
  assert.deepEqual(decodeHash(hash), { kind: 'scenario', scenario });
});

test('no changes means an empty hash, and an empty hash means the defaults', () => {
  assert.equal(encodeHash({}), '');
  assert.deepEqual(decodeHash(''), { kind: 'empty' });
  assert.deepEqual(decodeHash('#'), { kind: 'empty' });
  assert.deepEqual(decodeHash('#s=%7B%7D'), { kind: 'empty' });
});

test('the hash is URL-safe: no raw braces, quotes or spaces', () => {
  const hash = encodeHash({ model: { architecture: { layers: 12, gated_mlp: false } } });
  assert.doesNotMatch(hash.slice(3), /[{}" ]/);
});

test('a plain in-page anchor is left alone, not reported as a broken scenario', () => {
  assert.deepEqual(decodeHash('#foo'), { kind: 'anchor' });
  assert.deepEqual(decodeHash('#section-2'), { kind: 'anchor' });
  assert.equal(decodeHash('#x=1').kind, 'invalid');
});

test('broken hashes are reported, never thrown', () => {
  const cases = [
    '#s=%7Bnot-json',
    '#s=%E0%A4%A',
    '#x=1',
    '#s=[1,2]',
    '#s=%22text%22',
    '#s=%7B%22model%22%3A5%7D',
    `#s=${'a'.repeat(9000)}`,
  ];
  for (const hash of cases) {
    const result = decodeHash(hash);
    assert.equal(result.kind, 'invalid', hash.slice(0, 40));
    assert.ok(result.message.length > 0);
  }
});

test('given the engine, a member given twice in the link is refused with its path, as the CLI refuses it', async () => {
  const { existsSync, readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const { join, dirname } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm');
  const gluePath = join(wasmDir, 'trainscope_engine.js');
  assert.ok(existsSync(gluePath), `${gluePath} is missing: build the engine first`);
  const engineModule = await createRequire(import.meta.url)(gluePath)({
    wasmBinary: readFileSync(join(wasmDir, 'trainscope_engine.wasm')),
  });
  // As engine.ts's door reads scenario text: the estimate's errors.
  const engine = { scenarioErrors: (json) => JSON.parse(engineModule.estimate(json)).errors };
  // JSON.parse alone reads 16 GPUs here; the engine (and so the CLI) refuses the text.
  const decoded = decodeHash(`#s=${encodeURIComponent('{"parallel":{"gpus":8,"gpus":16}}')}`, engine);
  assert.equal(decoded.kind, 'invalid');
  assert.match(decoded.message, /parallel\.gpus/);
  assert.match(decoded.message, /appears twice/);
  const fine = decodeHash(`#s=${encodeURIComponent('{"parallel":{"gpus":16}}')}`, engine);
  assert.deepEqual(fine, { kind: 'scenario', scenario: { parallel: { gpus: 16 } } });
});

test('a pasted config’s name travels in the link and the engine keeps it (issue 11: "Your model: your model")', async () => {
  const { engineModule } = await import('./wasm-engine.mjs');
  const scenario = {
    model: { name: 'Mistral-7B “v0.1”', architecture: { layers: 32, hidden: 4096, heads: 32, kv_heads: 8, mlp: 14336, vocab: 32000 } },
  };
  const decoded = decodeHash(encodeHash(scenario), { scenarioErrors: (json) => JSON.parse(engineModule.estimate(json)).errors });
  assert.deepEqual(decoded, { kind: 'scenario', scenario });
  const estimate = JSON.parse(engineModule.estimate(JSON.stringify(decoded.scenario)));
  assert.deepEqual(estimate.errors, []);
  assert.equal(estimate.scenario.model.name, 'Mistral-7B “v0.1”');
});

test('the step section’s playhead rides along as step=<event index>, with or without a scenario', () => {
  const scenario = { training: { recompute: 'full' } };
  const hash = encodeHash(scenario, 80);
  assert.match(hash, /^#s=[^&]+&step=80$/);
  assert.deepEqual(decodeHash(hash), { kind: 'scenario', scenario, playhead: 80 });
  assert.equal(encodeHash({}, 12), '#step=12');
  assert.deepEqual(decodeHash('#step=12'), { kind: 'empty', playhead: 12 });
  assert.equal(encodeHash(scenario, null), encodeHash(scenario), 'no playhead, no step part');
  for (const bad of ['#step=-1', '#step=x', '#step=1&step=2', '#step=1.5']) {
    const decoded = decodeHash(bad);
    assert.equal(decoded.kind, 'invalid', bad);
    assert.match(decoded.message, /step/, `${bad}: the message names the step`);
  }
  assert.deepEqual(decodeHash('#foo'), { kind: 'anchor' }, 'an anchor is still an anchor');
});
