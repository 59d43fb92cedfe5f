// Every sentence of the quiz interface, read from its source (web/src/quiz/*.ts): each
// t('quizui.…', 'English', …) call's key and English. Shared by the catalogue test
// (tests/web/quiz-i18n.test.mjs) and the browser test of the quiz in other languages.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './quiz-build.mjs';

/** key → English, asserting that every call of t( in the quiz's sources is one with literals. */
export function quizSentences() {
  const folder = join(repoRoot, 'web', 'src', 'quiz');
  const sentences = new Map();
  const literal = String.raw`'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"`;
  const call = new RegExp(String.raw`\bt\(\s*(?:${literal})\s*,\s*(?:${literal})`, 'g');
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.ts'))) {
    const text = readFileSync(join(folder, name), 'utf8');
    const found = [...text.matchAll(call)];
    // Every call of t( is one this test can read: none hides a computed key or English.
    const calls = [...text.matchAll(/\bt\(/g)].length;
    assert.equal(found.length, calls, `${name}: ${calls} calls of t(, ${found.length} with literal key and English`);
    for (const match of found) {
      const key = match[1] ?? match[2];
      // A JavaScript literal's escapes (\u201C, \') read as JSON would.
      const english = JSON.parse(`"${(match[3] ?? match[4]).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`);
      assert.match(key, /^quizui\.[a-z0-9_]+(\.[a-z0-9_]+)*$/, `${name}: ${key}`);
      if (sentences.has(key)) assert.equal(english, sentences.get(key), `${key} is used with two different English sentences`);
      sentences.set(key, english);
    }
  }
  return sentences;
}
