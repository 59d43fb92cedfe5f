#!/usr/bin/env node
// Checks the built-in bank's translations (i18n/<lang>/bank.json) against web/quiz/bank.json:
// every takeaway, item, option and misconception text is translated, nothing else is, and every
// text keeps the English {placeholders}. The engine refuses a translation that misses a field or
// changes a placeholder (docs/i18n.md, "The quiz bank"); this finds it before a learner does, and
// names every problem at once rather than the first one per item.
//
//   node tools/i18n/check-bank-translation.mjs            every i18n/<lang>/bank.json
//   node tools/i18n/check-bank-translation.mjs de es      those languages
//
// Exit code: 0 clean, 1 problems (listed by language, item and field), 2 a file could not be read.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// The placeholders of a text, as the engine's fill() finds them (src/engine/quiz/instance.cpp):
// each '{' up to the next '}'. Sorted, so a translation may move them but not drop or add one,
// and a placeholder used twice in English must be used twice in the translation.
export function placeholdersOf(text) {
  const found = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('{', at);
    if (open < 0) break;
    const close = text.indexOf('}', open);
    if (close < 0) break;
    found.push(text.slice(open, close + 1));
    at = close + 1;
  }
  return found.sort();
}

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// Compares one translated text with its English; returns the problem, or null.
function textProblem(english, translated) {
  if (translated === undefined) return 'missing';
  if (typeof translated !== 'string') return `must be a string, not ${JSON.stringify(translated)}`;
  if (translated.trim() === '') return 'is empty';
  const want = placeholdersOf(english);
  const have = placeholdersOf(translated);
  if (want.join('\u0000') === have.join('\u0000')) return null;
  const missing = want.filter((p) => { const i = have.indexOf(p); if (i < 0) return true; have.splice(i, 1); return false; });
  const parts = [];
  if (missing.length) parts.push(`lacks ${missing.join(' ')}`);
  if (have.length) parts.push(`adds ${have.join(' ')}`);
  return `placeholders differ from the English: ${parts.join('; ')}`;
}

// Every problem of `translation` (the parsed i18n/<lang>/bank.json) against `bank` (the parsed
// English bank), as {item, field, message}; `item` is "takeaways" for a takeaway's problem.
export function checkBankTranslation(bank, translation) {
  const problems = [];
  const report = (item, field, message) => problems.push({ item, field, message });

  if (!isPlainObject(translation)) {
    report('(file)', '', 'must be an object {"takeaways": {…}, "items": {…}}');
    return problems;
  }
  for (const key of Object.keys(translation))
    if (key !== 'takeaways' && key !== 'items') report('(file)', key, 'unknown field (only "takeaways" and "items")');

  const takeaways = translation.takeaways ?? {};
  if (!isPlainObject(takeaways)) report('takeaways', '', 'must be an object {takeawayId: text}');
  else {
    const englishTakeaways = new Map((bank.takeaways ?? []).map((t) => [t.id, t.text]));
    for (const [id, text] of englishTakeaways) {
      const problem = textProblem(text, own(takeaways, id) ? takeaways[id] : undefined);
      if (problem) report('takeaways', id, problem);
    }
    for (const id of Object.keys(takeaways))
      if (!englishTakeaways.has(id)) report('takeaways', id, 'extra: no takeaway has this id');
  }

  const items = translation.items ?? {};
  if (!isPlainObject(items)) {
    report('items', '', 'must be an object {itemId: translation}');
    return problems;
  }
  const englishItems = new Map((bank.items ?? []).map((item) => [item.id, item]));
  for (const id of Object.keys(items))
    if (!englishItems.has(id)) report(id, '', 'extra: no item has this id');

  for (const [id, english] of englishItems) {
    if (!own(items, id)) {
      report(id, '', 'missing: the item has no translation');
      continue;
    }
    const translated = items[id];
    if (!isPlainObject(translated)) {
      report(id, '', 'must be an object {prompt, explanation, options?, misconceptions?}');
      continue;
    }
    const allowed = new Set(['prompt', 'explanation']);
    for (const field of ['prompt', 'explanation']) {
      const problem = textProblem(english[field], translated[field]);
      if (problem) report(id, field, problem);
    }
    // Options and misconceptions are keyed by their ids; each carries only its texts.
    const groups = [
      ['options', english.options, ['text', 'feedback']],
      ['misconceptions', english.misconceptions, ['feedback']],
    ];
    for (const [group, englishEntries, fields] of groups) {
      if (!englishEntries) continue;
      allowed.add(group);
      const entries = translated[group];
      if (!isPlainObject(entries)) {
        report(id, group, entries === undefined ? 'missing' : 'must be an object keyed by id');
        continue;
      }
      const englishIds = new Set(englishEntries.map((e) => e.id));
      for (const entryId of Object.keys(entries))
        if (!englishIds.has(entryId)) report(id, `${group}.${entryId}`, `extra: the item has no such ${group === 'options' ? 'option' : 'misconception'}`);
      for (const entry of englishEntries) {
        const where = `${group}.${entry.id}`;
        if (!own(entries, entry.id)) {
          report(id, where, 'missing');
          continue;
        }
        const entryTranslation = entries[entry.id];
        if (!isPlainObject(entryTranslation)) {
          report(id, where, `must be an object {${fields.join(', ')}}`);
          continue;
        }
        for (const field of fields) {
          const problem = textProblem(entry[field], entryTranslation[field]);
          if (problem) report(id, `${where}.${field}`, problem);
        }
        for (const key of Object.keys(entryTranslation))
          if (!fields.includes(key)) report(id, `${where}.${key}`, 'extra: not a text field (ids and answers stay in the bank)');
      }
    }
    for (const key of Object.keys(translated))
      if (!allowed.has(key)) report(id, key, 'extra: not a text field of this item (ids, scenarios, units and answers stay in the bank)');
  }
  return problems;
}

function readJson(path) {
  try {
    return { value: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (error) {
    return { error: `${path}: ${error.message}` };
  }
}

function main(argv) {
  const i18nDir = join(repoRoot, 'i18n');
  const languages = argv.length
    ? argv
    : existsSync(i18nDir)
      ? readdirSync(i18nDir).filter((lang) => lang !== 'en' && existsSync(join(i18nDir, lang, 'bank.json'))).sort()
      : [];
  if (!languages.length) {
    console.error('no i18n/<lang>/bank.json to check');
    return 2;
  }
  const bank = readJson(join(repoRoot, 'web', 'quiz', 'bank.json'));
  if (bank.error) {
    console.error(bank.error);
    return 2;
  }
  let exit = 0;
  for (const lang of languages) {
    const translation = readJson(join(i18nDir, lang, 'bank.json'));
    if (translation.error) {
      console.error(translation.error);
      exit = 2;
      continue;
    }
    const problems = checkBankTranslation(bank.value, translation.value);
    for (const p of problems) console.error(`${lang}: ${p.item}${p.field ? `, ${p.field}` : ''}: ${p.message}`);
    const items = Object.keys(translation.value?.items ?? {}).length;
    console.log(`${lang}: ${problems.length ? `${problems.length} problem${problems.length === 1 ? '' : 's'}` : 'ok'} (${items} of ${bank.value.items.length} items)`);
    if (problems.length && exit === 0) exit = 1;
  }
  return exit;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
