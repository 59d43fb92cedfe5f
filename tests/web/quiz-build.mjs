// Compiles the quiz's DOM-free modules (web/src/quiz/{state,storage,bank,source,practice}.ts) for the node unit
// tests, and loads the real wasm engine under node. Each test file builds into its own folder
// under build/quiz-units/, so files that node --test runs side by side never race.
// Usage from a test: const units = await buildQuizUnits('state'); const { score } = await import(units.state);
// By hand:           node tests/web/quiz-build.mjs   (→ build/quiz-units/manual/)
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildUnitModules } from '../../web/build.mjs';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = ['state', 'storage', 'bank', 'source', 'practice'];

export async function buildQuizUnits(name) {
  const outdir = join(repoRoot, 'build', 'quiz-units', name);
  await buildUnitModules(join('src', 'quiz'), modules, outdir);
  return Object.fromEntries(modules.map((module) => [module, pathToFileURL(join(outdir, `${module}.mjs`)).href]));
}

/** The wasm engine built by scripts/build.sh, or null when it has not been built. */
export async function loadEngine() {
  const wasmDir = join(repoRoot, 'build', 'wasm');
  const gluePath = join(wasmDir, 'trainscope_engine.js');
  if (!existsSync(gluePath)) return null;
  const create = createRequire(import.meta.url)(gluePath);
  return create({ wasmBinary: readFileSync(join(wasmDir, 'trainscope_engine.wasm')) });
}

export function readBank() {
  return JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const units = await buildQuizUnits('manual');
  console.log(`quiz units → ${Object.values(units).join(', ')}`);
}
