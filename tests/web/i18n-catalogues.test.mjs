// The translation catalogues against the code (docs/i18n.md): i18n/en/ is what the code says
// today, and every other language translates exactly those keys, with the same placeholders.
// A language's engine part may be split over several files (engine.json, engine-quiz.json), as
// may its page part; together they must cover the English once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
