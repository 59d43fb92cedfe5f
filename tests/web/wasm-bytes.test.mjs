// The engine's bytes ride in the bundle as base64 of gzip (web/src/engine/wasm-bytes.ts), packed by the
// build's gzipSmallest (zopfli); unpacking must give back exactly the bytes that went in,
// including the real engine's, packed as the build packs it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeBase64, instantiateFromGzipBase64, wasmBytesFromGzipBase64 } from '../../build/web-units/wasm-bytes.mjs';
import { gzipSmallest } from '../../web/build.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('base64 decodes every byte value', () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
  assert.deepEqual(Buffer.from(decodeBase64(all.toString('base64'))), all);
});

/** The real engine as the build packs it: zopfli's gzip, made once for the tests below. */
const engineWasm = readFileSync(join(repoRoot, 'build', 'wasm', 'trainscope_engine.wasm'));
const packedEngine = gzipSmallest(engineWasm);

test('the build packs the engine smaller than zlib does, in a gzip that zlib reads back', async () => {
  const packed = await packedEngine;
  assert.ok(packed.length < gzipSync(engineWasm, { level: 9 }).length, `${packed.length} bytes packed vs zlib level 9`);
  assert.ok(gunzipSync(packed).equals(engineWasm));
});

test('the real engine survives the build’s packing and base64 unchanged', async () => {
  const wasm = engineWasm;
  const unpacked = await wasmBytesFromGzipBase64((await packedEngine).toString('base64'));
  assert.equal(unpacked.length, wasm.length);
  assert.ok(Buffer.from(unpacked).equals(wasm), 'unpacked bytes differ from the .wasm');
  assert.ok(WebAssembly.validate(unpacked));
});

test('text that is not gzip is refused, not passed on as an engine', async () => {
  await assert.rejects(wasmBytesFromGzipBase64(Buffer.from('not gzip at all').toString('base64')));
});

// The smallest module that answers: (func (export "answer") (result i32) i32.const 42).
const ANSWER_MODULE = Buffer.from([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7f, // type: () -> i32
  0x03,
  0x02,
  0x01,
  0x00, // function 0 has type 0
  0x07,
  0x0a,
  0x01,
  0x06,
  0x61,
  0x6e,
  0x73,
  0x77,
  0x65,
  0x72,
  0x00,
  0x00, // export "answer"
  0x0a,
  0x06,
  0x01,
  0x04,
  0x00,
  0x41,
  0x2a,
  0x0b, // body: i32.const 42
]);

test('a module is instantiated while it inflates, and runs', async () => {
  const instance = await instantiateFromGzipBase64(gzipSync(ANSWER_MODULE).toString('base64'), {});
  assert.equal(instance.exports.answer(), 42);
});

test('the real engine compiles from its streamed bytes with the imports it declares', async () => {
  const wasm = engineWasm;
  // Stand-in imports of the right kinds: compiling and linking must succeed; nothing is called.
  const declared = WebAssembly.Module.imports(new WebAssembly.Module(wasm));
  const imports = {};
  for (const { module, name, kind } of declared) {
    imports[module] ??= {};
    imports[module][name] = kind === 'function' ? () => 0 : undefined;
  }
  const instance = await instantiateFromGzipBase64((await packedEngine).toString('base64'), imports);
  assert.ok(Object.keys(instance.exports).length > 5, 'the engine exports its functions');
});

test('a stream that is not gzip rejects instantiation instead of running something', async () => {
  await assert.rejects(instantiateFromGzipBase64(Buffer.from('not gzip at all').toString('base64'), {}));
});
