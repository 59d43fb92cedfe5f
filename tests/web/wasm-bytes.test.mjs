// The engine's bytes ride in the bundle as base64 of gzip (web/src/wasm-bytes.ts); unpacking must
// give back exactly the bytes that went in, including the real engine's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { decodeBase64, wasmBytesFromGzipBase64 } from '../../build/web-units/wasm-bytes.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('base64 decodes every byte value', () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
  assert.deepEqual(Buffer.from(decodeBase64(all.toString('base64'))), all);
});

test('the real engine survives gzip and base64 unchanged', async () => {
  const wasm = readFileSync(join(repoRoot, 'build', 'wasm', 'trainscope_engine.wasm'));
  const unpacked = await wasmBytesFromGzipBase64(gzipSync(wasm, { level: 9 }).toString('base64'));
  assert.equal(unpacked.length, wasm.length);
  assert.ok(Buffer.from(unpacked).equals(wasm), 'unpacked bytes differ from the .wasm');
  assert.ok(WebAssembly.validate(unpacked));
});

test('text that is not gzip is refused, not passed on as an engine', async () => {
  await assert.rejects(wasmBytesFromGzipBase64(Buffer.from('not gzip at all').toString('base64')));
});
