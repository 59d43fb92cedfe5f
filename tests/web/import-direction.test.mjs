// Imports point one way (web/src/README.md and each folder's README): widget → sections →
// figures → dom, and only web/src/engine/ touches the wasm module. This test reads every import
// of web/src and web/ship and names the file and line of any that points the other way.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

/** What each folder (path under web/, ending in "/") or file may import, as its README says. First match wins. */
const RULES = [
  { from: 'src/engine/', may: ['src/engine/', 'src/i18n/', 'trainscope:engine-'] },
  { from: 'src/i18n/', may: ['src/i18n/'] },
  { from: 'src/dom/', may: ['src/dom/'] },
  { from: 'src/first-view/', may: ['src/first-view/'] },
  { from: 'src/controls/', may: ['src/controls/', 'src/dom/', 'src/engine/', 'src/i18n/'] },
  { from: 'src/figures/', may: ['src/figures/', 'src/dom/', 'src/engine/', 'src/i18n/'] },
  { from: 'src/sections/', may: ['src/sections/', 'src/figures/', 'src/controls/', 'src/dom/', 'src/engine/', 'src/i18n/'] },
  { from: 'src/quiz/', may: ['src/quiz/', 'src/dom/', 'src/engine/', 'src/i18n/'] },
  { from: 'src/widget/', may: ['src/', 'quiz/bank.json', 'ship/xapi.ts'] },
  { from: 'src/main.ts', may: ['src/widget/mount.ts', 'src/i18n/', 'ship/iframe-child.ts'] },
  // The shells around the widget: through its mount and options, the engine's loader, words and the quiz's types.
  {
    from: 'ship/',
    may: ['ship/', 'src/widget/mount.ts', 'src/widget/options.ts', 'src/engine/engine.ts', 'src/engine/types.ts', 'src/i18n/', 'src/quiz/'],
  },
];

/** The wasm module: its interface, its factory and bytes. Only web/src/engine/ may name them. */
const WASM_MODULE = ['src/engine/engine-module.d.ts', 'trainscope:engine-'];

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** Every import of a source text: its line and what it names, as a path under web/ (or the bare specifier). */
export function importsOf(file, text) {
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    const line = text.slice(0, match.index + match[0].indexOf(specifier)).split('\n').length;
    let target = specifier;
    if (specifier.startsWith('.')) {
      target = relative(webDir, resolve(webDir, dirname(file), specifier))
        .split('\\')
        .join('/');
      if (!/\.(ts|json|mjs|js)$/.test(target)) target += target.endsWith('engine-module') ? '.d.ts' : '.ts';
    }
    found.push({ line, target });
  }
  return found;
}

const allowedBy = (prefixes, target) => prefixes.some((prefix) => target === prefix || target.startsWith(prefix));

/** The imports of `file` (a path under web/) that break the rules, as "file:line imports target". */
export function violations(file, text, rules = RULES) {
  const rule = rules.find((candidate) => file === candidate.from || file.startsWith(candidate.from));
  const broken = [];
  for (const { line, target } of importsOf(file, text)) {
    const external =
      !target.startsWith('src/') && !target.startsWith('ship/') && !target.startsWith('quiz/') && !target.startsWith('trainscope:');
    if (external) continue;
    const wasm = allowedBy(WASM_MODULE, target) && !file.startsWith('src/engine/');
    if (wasm || (rule && !allowedBy(rule.may, target))) broken.push(`web/${file}:${line} imports ${target}`);
  }
  return broken;
}

function sources(folder) {
  return readdirSync(join(webDir, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = [...sources('src'), ...sources('ship')].map((file) => ({ file, text: readFileSync(join(webDir, file), 'utf8') }));

test('every import in web/src and web/ship points the way its folder’s README allows', () => {
  assert.ok(files.length > 50, 'the sources were read');
  assert.ok(files.reduce((count, { file, text }) => count + importsOf(file, text).length, 0) > 200, 'their imports were found');
  assert.deepEqual(
    files.flatMap(({ file, text }) => violations(file, text)),
    [],
  );
});

test('a section never imports the widget', () => {
  const found = files
    .filter(({ file }) => file.startsWith('src/sections/'))
    .flatMap(({ file, text }) =>
      importsOf(file, text)
        .filter(({ target }) => target.startsWith('src/widget/'))
        .map(({ line }) => `web/${file}:${line}`),
    );
  assert.deepEqual(found, []);
});

test('a figure never imports a section', () => {
  const found = files
    .filter(({ file }) => file.startsWith('src/figures/'))
    .flatMap(({ file, text }) =>
      importsOf(file, text)
        .filter(({ target }) => target.startsWith('src/sections/'))
        .map(({ line }) => `web/${file}:${line}`),
    );
  assert.deepEqual(found, []);
});

test('nothing outside web/src/engine/ imports the wasm module’s interface or factory', () => {
  const found = files
    .filter(({ file }) => !file.startsWith('src/engine/'))
    .flatMap(({ file, text }) =>
      importsOf(file, text)
        .filter(({ target }) => allowedBy(WASM_MODULE, target))
        .map(({ line }) => `web/${file}:${line}`),
    );
  assert.deepEqual(found, []);
});

test('the checker names the file and line of an import that points the wrong way', () => {
  // A figure reaching for a section, on its third line; a section reaching for the widget; the quiz for the module.
  assert.deepEqual(violations('src/figures/bar.ts', "// a bar\n\nimport { memorySection } from '../sections/memory';\n"), [
    'web/src/figures/bar.ts:3 imports src/sections/memory.ts',
  ]);
  assert.deepEqual(violations('src/sections/x.ts', "import type { Widget } from '../widget/widget';"), [
    'web/src/sections/x.ts:1 imports src/widget/widget.ts',
  ]);
  assert.deepEqual(violations('src/quiz/x.ts', "import type { TrainscopeEngineModule } from '../engine/engine-module';"), [
    'web/src/quiz/x.ts:1 imports src/engine/engine-module.d.ts',
  ]);
  assert.deepEqual(violations('ship/x.ts', "import glue from 'trainscope:engine-glue';"), [
    'web/ship/x.ts:1 imports trainscope:engine-glue',
  ]);
  assert.deepEqual(violations('src/sections/y.ts', "import { h } from '../dom/dom';\nimport { legend } from '../figures/legend';"), []);
});
