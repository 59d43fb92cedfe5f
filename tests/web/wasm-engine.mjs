// The real wasm engine under node, as the page loads it (its bytes handed over, nothing fetched).
// Shared by the web tests that check the page's modules against the engine itself.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = join(repoRoot, 'build', 'wasm');
const gluePath = join(wasmDir, 'trainscope_engine.js');
if (!existsSync(gluePath)) throw new Error(`${gluePath} is missing: build the engine first (bash scripts/build.sh)`);
const createTrainscopeEngine = createRequire(import.meta.url)(gluePath);

/** The raw embind module (src/bindings/engine_bindings.cpp). */
export const engineModule = await createTrainscopeEngine({ wasmBinary: readFileSync(join(wasmDir, 'trainscope_engine.wasm')) });
