// The translation catalogues against the code (docs/i18n.md): i18n/en/ is what the code says
// today, and every other language translates exactly those keys, with the same placeholders.
// A language's engine part may be split over several files (engine.json, engine-quiz.json), as
// may its page part; together they must cover the English once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { extract, staleFiles } from '../../tools/i18n/extract.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const translatedLanguages = ['de', 'es'];

function readCatalogue(relativePath) {
  const catalogue = JSON.parse(readFileSync(join(root, relativePath), 'utf8'));
  assert.ok(catalogue && typeof catalogue === 'object' && !Array.isArray(catalogue), `${relativePath} must be a JSON object`);
  for (const [key, text] of Object.entries(catalogue)) {
    assert.equal(typeof text, 'string', `${relativePath}: "${key}" must be a string`);
  }
  return catalogue;
}

function placeholders(text) {
  return [...new Set([...text.matchAll(/\{([a-zA-Z0-9_]+)\}/g)].map((match) => match[1]))].sort();
}

/** The files of one part of one language: engine.json, engine-quiz.json, … */
function partFiles(language, part) {
  const directory = join(root, 'i18n', language);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name === `${part}.json` || (name.startsWith(`${part}-`) && name.endsWith('.json')))
    .sort()
    .map((name) => `i18n/${language}/${name}`);
}

test('the extractor finds no computed key, no ${} in an English template and no key with two Englishes', () => {
  const { problems } = extract(root);
  assert.deepEqual(problems, []);
});

test('the extractor reads adjacent literals, escapes and multi-line calls, and names each unreadable call', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'i18n-extract-'));
  try {
    mkdirSync(join(fixture, 'src', 'engine'), { recursive: true });
    mkdirSync(join(fixture, 'web', 'src'), { recursive: true });
    writeFileSync(
      join(fixture, 'src', 'engine', 'a.cpp'),
      [
        '#include "not/a/string.hpp"',
        '// message("commented.out", "no")',
        'std::string message(std::string_view key, std::string_view english);',
        "const char quote = '\"';",
        'auto a = message("a.joined", "Say \\"hi\\" " "\\\\ twice\\n"',
        '                 "\\xc3\\xa9 × {n}", {{"n", n}});',
        'auto b = error.message("member.call");',
        'auto c = message(key_name, "computed");',
        'auto d = message("a.joined", "other English");',
        'auto e = message("a.english", english_variable);',
      ].join('\n'),
    );
    writeFileSync(
      join(fixture, 'web', 'src', 'b.ts'),
      [
        'const pattern = /[\'"`]/g;',
        'function t(key: string, english: string): string { return english; }',
        "const x = ctx.t(\n  'page.multi',\n  `Template {n}`,\n  { n });",
        'const y = this.t("page.plus", \'Joined \' + "string");',
        "const z = `outer ${t('page.inner', 'inside')}`;",
        "const bad = t(someKey, 'x');",
        "const worse = t('page.template', `has ${value}`);",
      ].join('\n'),
    );
    const { catalogues, problems } = extract(fixture);
    assert.deepEqual(catalogues.engine, { 'a.joined': 'Say "hi" \\ twice\né × {n}' });
    assert.deepEqual(catalogues.page, { 'page.inner': 'inside', 'page.multi': 'Template {n}', 'page.plus': 'Joined string' });
    const named = (pattern) => problems.some((problem) => pattern.test(problem));
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.ok(named(/a\.cpp:8: .*key must be a string literal.*key_name/), 'computed C++ key');
    assert.ok(named(/a\.cpp:9: .*"a\.joined" is used with other English/), 'one key, two Englishes');
    assert.ok(named(/a\.cpp:10: .*"a\.english"'s English must be a string literal/), 'computed English');
    assert.ok(named(/b\.ts:9: .*key must be a string literal.*someKey/), 'computed t() key');
    assert.ok(named(/b\.ts:10: .*"page\.template"'s English contains \$\{/), '${} in a template');
  } finally {
    rmSync(fixture, { recursive: true, force: true });
  }
});

test('i18n/en/engine.json and page.json are what the code says (node tools/i18n/extract.mjs rewrites them)', () => {
  const { catalogues } = extract(root);
  assert.deepEqual(staleFiles(root, catalogues), []);
});

for (const language of translatedLanguages) {
  for (const part of ['engine', 'page']) {
    const english = readCatalogue(`i18n/en/${part}.json`);

    test(`${language}: the ${part} catalogues translate every English key, once, and no other`, () => {
      const files = partFiles(language, part);
      assert.ok(files.length > 0, `i18n/${language}/ has no ${part}*.json`);
      const problems = [];
      const owner = new Map();
      for (const file of files) {
        const catalogue = readCatalogue(file);
        const unused = Object.keys(catalogue).filter((key) => !(key in english));
        if (unused.length > 0) problems.push(`${file} has keys the code no longer uses: ${unused.join(', ')}`);
        for (const key of Object.keys(catalogue)) {
          if (owner.has(key)) problems.push(`"${key}" is in both ${owner.get(key)} and ${file}`);
          else owner.set(key, file);
        }
      }
      const missing = Object.keys(english).filter((key) => !owner.has(key));
      if (missing.length > 0) {
        problems.push(`${files.join(' + ')} miss ${missing.length} key(s): ${missing.join(', ')}`);
      }
      assert.deepEqual(problems, []);
    });

    test(`${language}: every ${part} translation keeps the English's {placeholders}`, () => {
      const problems = [];
      for (const file of partFiles(language, part)) {
        for (const [key, text] of Object.entries(readCatalogue(file))) {
          if (!(key in english)) continue;
          const expected = placeholders(english[key]);
          const found = placeholders(text);
          if (expected.join() !== found.join()) {
            problems.push(`${file} "${key}": {${found.join('}, {')}} instead of {${expected.join('}, {')}}`);
          }
          if (text.trim() === '') problems.push(`${file} "${key}" is empty`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }
}

// The wasm engine as the page drives it: the language pack's engine part through loadMessages,
// then setLanguage before a call (web/src/engine/engine.ts). Imported here so that the checks above run
// even without a wasm build.
test('the wasm engine speaks a loaded catalogue after setLanguage, and English again after setLanguage("en")', async () => {
  const { engineModule } = await import('./wasm-engine.mjs');
  const german = {};
  for (const file of partFiles('de', 'engine')) Object.assign(german, readCatalogue(file));
  assert.equal(engineModule.loadMessages('de-DE', JSON.stringify(german)), '');
  assert.match(engineModule.loadMessages('fr', '{}'), /fr/);
  assert.match(engineModule.loadMessages('es', '[1]'), /object/);

  const scenario = JSON.stringify({ model: { params: 7e9 } });
  try {
    assert.equal(engineModule.setLanguage('de'), true);
    const note = JSON.parse(engineModule.estimate(scenario)).notes[0];
    assert.equal(note, german['estimate.note.params_only']);
    assert.equal(engineModule.setLanguage('fr'), false, 'an unknown tag is refused');
    assert.match(JSON.parse(engineModule.estimate(scenario)).notes[0], /^Only a parameter count was given/, 'and the engine keeps English');
  } finally {
    engineModule.setLanguage('en');
  }
  assert.match(JSON.parse(engineModule.estimate(scenario)).notes[0], /^Only a parameter count was given/);
});
