// The engine's folders include one way (src/engine/README.md): text ← model ← api ← quiz, and
// only the bindings know Emscripten. A file that includes against that direction fails here,
// naming the file, the line and the rule it breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const engineRoot = join(repoRoot, 'src/engine');

// Each folder and the folders it may include.
const allowedIncludes = {
  text: ['text'],
  model: ['text', 'model'],
  api: ['text', 'model', 'api'],
  quiz: ['text', 'model', 'api', 'quiz'],
};

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(cpp|hpp)$/.test(entry.name) ? [path] : [];
  });
}

function engineIncludes(path) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, index) => {
      const match = /^\s*#\s*include\s+"engine\/([^"]+)"/.exec(line);
      return match ? [{ target: match[1], line: index + 1 }] : [];
    });
}

test('every engine file lives in one of the four folders', () => {
  const strays = sourceFiles(engineRoot)
    .map((path) => relative(engineRoot, path))
    .filter((path) => !(path.split('/')[0] in allowedIncludes) || !path.includes('/'));
  assert.deepEqual(strays, [], 'files outside text/, model/, api/, quiz/');
});

test('engine folders include only the folders below them', () => {
  const violations = [];
  for (const path of sourceFiles(engineRoot)) {
    const folder = relative(engineRoot, path).split('/')[0];
    for (const { target, line } of engineIncludes(path)) {
      const targetFolder = target.split('/')[0];
      if (!allowedIncludes[folder].includes(targetFolder)) {
        violations.push(
          `${relative(repoRoot, path)}:${line} includes engine/${target}: ${folder}/ may include only ${allowedIncludes[folder].join(', ')}`,
        );
      }
    }
  }
  assert.deepEqual(violations, []);
});

test('no engine file knows Emscripten, and no engine file includes iostream or sstream', () => {
  const offenders = sourceFiles(engineRoot).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    return /#\s*include\s*<(emscripten[^>]*|iostream|sstream)>/.test(text) || /\bEMSCRIPTEN_/.test(text) ? [relative(repoRoot, path)] : [];
  });
  assert.deepEqual(offenders, []);
});

test('every include names a file that exists', () => {
  const known = new Set(sourceFiles(engineRoot).map((path) => relative(engineRoot, path)));
  const missing = sourceFiles(engineRoot).flatMap((path) =>
    engineIncludes(path)
      .filter(({ target }) => !known.has(target))
      .map(({ target, line }) => `${relative(repoRoot, path)}:${line} engine/${target}`),
  );
  assert.deepEqual(missing, []);
});
