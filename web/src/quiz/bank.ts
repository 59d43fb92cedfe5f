// Reads a question bank (web/quiz/bank.json, schema in docs/quiz.md) through the engine: which
// items can be asked, which cannot and why. A broken item is left out with the engine's own
// message; the rest of the quiz stays usable. No DOM here, so node tests can run it.

import { quizCalls } from '../engine/quiz';
import { translator, type Language, type Translate } from '../i18n/i18n';
import type { ItemSet } from './state';
import type { BankProblem, BankTranslations, ItemKind, QuizEngine, QuizInstance, Takeaway } from './types';

const english: Translate = translator(null);

/** The widget's language, for the page's own sentences and the bank's takeaways. */
export interface BankLanguage {
  t?: Translate;
  language?: Language;
}

export interface PreparedItem {
  id: string;
  kind: ItemKind;
  takeaway: string;
  /** The item's set as the engine read it: "deeper" when it says so, else "lesson" (docs/quiz.md, "Sets"). */
  set: ItemSet;
  /** The item as JSON text, exactly what the engine grades. */
  json: string;
  /** Option ids in the author's order (empty for numeric and estimate items). */
  optionIds: string[];
  /** For choice items: the bank's own verdict and feedback per option, shown with the solution. */
  options: { id: string; text: string; correct: boolean; feedback: string }[];
  /** numeric and estimate items: a typed answer. */
  numeric: boolean;
  /** The item draws new numbers for each seed (it has a `randomize` list). */
  randomized: boolean;
  /** The slips this item is the next practice question for (the bank's `practises`; docs/quiz.md, "Practice"). */
  practises: string[];
  /** A practice question (practice.ts): its id is PRACTICE_PREFIX + the bank item's, its progress the run's. */
  practice?: boolean;
}

/** Before a practice question's id, so that it never meets the scored question's (views, elements). */
export const PRACTICE_PREFIX = 'practice~';

/** The bank item asked as a practice question. */
export function asPractice(item: PreparedItem): PreparedItem {
  return { ...item, id: PRACTICE_PREFIX + item.id, practice: true };
}

/** The author's choices for the whole bank (docs/quiz.md, "The bank"), as the engine read them. */
export interface BankSettings {
  order: 'fixed' | 'shuffled';
  /** How many questions each learner is asked; null: every usable one. */
  draw: number | null;
  /** 0..1, or null: the bank sets none. */
  passMark: number | null;
}

export interface PreparedBank {
  /** Short, stable name for this bank (from its takeaways), used to namespace saved progress. */
  bankId: string;
  items: PreparedItem[];
  takeaways: Takeaway[];
  /** Every problem the engine reported, bank-level ones included. */
  problems: BankProblem[];
  /** Labels ("an-id", "#4") of the items left out. */
  skipped: string[];
  /** Items the bank held, usable or not. */
  total: number;
  settings: BankSettings;
  /** A usable item draws new numbers for a retry (the engine's `draws_numbers`): only then does the quiz promise them. */
  drawsNumbers: boolean;
}

const KINDS: readonly string[] = ['single_choice', 'multiple_select', 'numeric', 'estimate'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable name, not a security measure. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function problemKey(problem: BankProblem): string {
  return `${problem.item}\u0000${problem.field}\u0000${problem.message}`;
}

function asProblems(value: unknown, t: Translate): BankProblem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((problem) => ({
    item: typeof problem.item === 'string' ? problem.item : '',
    field: typeof problem.field === 'string' ? problem.field : '',
    message: typeof problem.message === 'string' ? problem.message : t('quizui.problem.unknown', 'unknown problem'),
  }));
}

function ownEntry(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * An author's bank is one the host named and could load: it is asked as written, with the
 * `translations` its author gave it. Without a name, or when the named bank failed to load (the
 * built-in questions stand in), the bank is the built-in one.
 */
export function isAuthorBank(source: { bankName?: string; bankProblem?: unknown }): boolean {
  return source.bankName !== undefined && !source.bankProblem;
}

/**
 * The built-in bank with its translations into `language` put where the engine reads them
 * (docs/i18n.md, "The quiz bank"): each item's as `item.translations[language]`, each takeaway's
 * as `takeaway.translations[language]`. They travel apart (i18n/<lang>/bank.json, in the
 * language pack) so that English learners do not download them. The bank given is not changed:
 * widgets in different languages share the one built-in bank. A translation the bank's entry
 * already has for that language is kept; ids the bank does not have are ignored (the engine
 * names a translation's own problems when it validates the bank).
 */
export function withBankTranslations(bank: unknown, language: Language, translations: BankTranslations | null | undefined): unknown {
  if (!isRecord(translations)) return bank;
  let data: unknown = bank;
  if (typeof bank === 'string') {
    try {
      data = JSON.parse(bank);
    } catch {
      return bank;
    }
  }
  if (!isRecord(data)) return bank;
  const itemTranslations = isRecord(translations.items) ? translations.items : {};
  const takeawayTranslations = isRecord(translations.takeaways) ? translations.takeaways : {};
  const attach = (entry: unknown, table: Record<string, unknown>, fits: (translation: unknown) => boolean): unknown => {
    if (!isRecord(entry) || typeof entry.id !== 'string') return entry;
    const translation = ownEntry(table, entry.id);
    if (translation === undefined || !fits(translation)) return entry;
    const existing = isRecord(entry.translations) ? entry.translations : {};
    if (ownEntry(existing, language) !== undefined) return entry;
    return { ...entry, translations: { ...existing, [language]: translation } };
  };
  const translated: Record<string, unknown> = { ...data };
  if (Array.isArray(data.takeaways)) {
    translated.takeaways = data.takeaways.map((takeaway) =>
      attach(takeaway, takeawayTranslations, (text) => typeof text === 'string' && text !== ''),
    );
  }
  if (Array.isArray(data.items)) translated.items = data.items.map((item) => attach(item, itemTranslations, isRecord));
  return translated;
}

/** A takeaway's text in `language` when it has a translation into it, else its own. */
function takeawayText(takeaway: Record<string, unknown>, text: string, language: Language): string {
  const translated = isRecord(takeaway.translations) ? ownEntry(takeaway.translations, language) : undefined;
  return typeof translated === 'string' && translated !== '' ? translated : text;
}

type Report = (list: BankProblem[]) => void;

/** The bank as data and as the JSON text the engine reads (a string is accepted as either). */
function bankData(bank: unknown, t: Translate, report: Report): { data: unknown; bankJson: string } {
  if (typeof bank === 'string') {
    try {
      return { data: JSON.parse(bank), bankJson: bank };
    } catch {
      return { data: null, bankJson: bank };
    }
  }
  try {
    return { data: bank, bankJson: JSON.stringify(bank) ?? 'null' };
  } catch {
    report([
      {
        item: '',
        field: '',
        message: t('quizui.problem.bank_not_writable', 'the bank cannot be written as JSON (does it refer to itself?)'),
      },
    ]);
    return { data: bank, bankJson: 'null' };
  }
}

function readTakeaways(data: unknown, language: Language): Takeaway[] {
  const takeaways: Takeaway[] = [];
  const rawTakeaways = isRecord(data) && Array.isArray(data.takeaways) ? data.takeaways : [];
  for (const takeaway of rawTakeaways) {
    if (isRecord(takeaway) && typeof takeaway.id === 'string' && typeof takeaway.text === 'string' && takeaway.id && takeaway.text) {
      takeaways.push({ id: takeaway.id, text: takeawayText(takeaway, takeaway.text, language) });
    }
  }
  return takeaways;
}

/** One item as the quiz asks it, from the engine's instance for seed 0. */
function preparedItem(raw: Record<string, unknown>, id: string, json: string, instance: QuizInstance): PreparedItem {
  const kind = instance.kind as ItemKind;
  const rawOptions = Array.isArray(raw.options) ? raw.options.filter(isRecord) : [];
  return {
    id,
    kind,
    takeaway: instance.takeaway,
    set: instance.set === 'deeper' ? 'deeper' : 'lesson',
    json,
    optionIds: instance.options.map((option) => option.id),
    options: rawOptions.map((option) => ({
      id: String(option.id ?? ''),
      text: String(option.text ?? ''),
      correct: option.correct === true,
      feedback: typeof option.feedback === 'string' ? option.feedback : '',
    })),
    numeric: kind === 'numeric' || kind === 'estimate',
    randomized: Array.isArray(raw.randomize) && raw.randomize.length > 0,
    practises: Array.isArray(raw.practises) ? raw.practises.filter((slip): slip is string => typeof slip === 'string') : [],
  };
}

interface ItemCheck {
  engine: QuizEngine;
  t: Translate;
  report: Report;
  unusable: ReadonlySet<number>;
  keptIds: Set<string>;
}

/** The item at `index` if the engine can ask it; null (with its problems reported) when it is left out. */
function checkItem(raw: unknown, index: number, check: ItemCheck): PreparedItem | null {
  const { t, report } = check;
  const id = isRecord(raw) && typeof raw.id === 'string' ? raw.id : '';
  const label = id || `#${index + 1}`;
  if (!isRecord(raw)) {
    report([{ item: label, field: '', message: t('quizui.problem.item_not_object', 'is not an object') }]);
    return null;
  }
  if (check.unusable.has(index)) return null;
  if (id && check.keptIds.has(id)) {
    report([{ item: label, field: 'id', message: t('quizui.problem.repeated_id', 'repeats another item\u2019s id') }]);
    return null;
  }
  const json = JSON.stringify(raw);
  const instance = quizCalls(check.engine).instance(json, 0);
  const errors = instance
    ? asProblems(instance.errors, t)
    : [{ item: label, field: '', message: t('quizui.problem.item_not_computed', 'the quiz engine could not compute it') }];
  if (!instance || errors.length > 0 || !id || !KINDS.includes(instance.kind)) {
    report(
      errors.length > 0
        ? errors
        : [{ item: label, field: 'kind', message: t('quizui.problem.unknown_kind', 'is not a kind this quiz can ask') }],
    );
    return null;
  }
  check.keptIds.add(id);
  return preparedItem(raw, id, json, instance);
}

/**
 * Validates the bank with the engine and keeps every item the engine can ask. `bank` is the
 * parsed bank.json (a JSON string is accepted too). The engine must already speak the widget's
 * `language` (its messages); `t` writes the page's own.
 */
export function prepareBank(engine: QuizEngine, bank: unknown, { t = english, language = 'en' }: BankLanguage = {}): PreparedBank {
  const problems: BankProblem[] = [];
  const seen = new Set<string>();
  const report: Report = (list) => {
    for (const problem of list) {
      const key = problemKey(problem);
      if (!seen.has(key)) {
        seen.add(key);
        problems.push(problem);
      }
    }
  };
  const { data, bankJson } = bankData(bank, t, report);
  const validation = quizCalls(engine).validateBank(bankJson);
  if (validation) report(asProblems(validation.errors, t));
  else report([{ item: '', field: '', message: t('quizui.problem.bank_not_checked', 'the quiz engine could not check the bank') }]);
  // Items the engine found a problem in (a repeated id, an explanation without its answer…) are
  // left out even when they could be asked: a learner never sees a half-broken question.
  const unusable = new Set(
    Array.isArray(validation?.unusable) ? validation.unusable.filter((index): index is number => typeof index === 'number') : [],
  );
  const takeaways = readTakeaways(data, language);
  const rawItems = isRecord(data) && Array.isArray(data.items) ? data.items : [];
  const items: PreparedItem[] = [];
  const skipped: string[] = [];
  const check: ItemCheck = { engine, t, report, unusable, keptIds: new Set<string>() };
  rawItems.forEach((raw, index) => {
    const item = checkItem(raw, index, check);
    if (item) items.push(item);
    else skipped.push((isRecord(raw) && typeof raw.id === 'string' && raw.id) || `#${index + 1}`);
  });
  const bankId = shortHash(takeaways.map((takeaway) => takeaway.id).join(',') || 'trainscope');
  const drawsNumbers = validation?.draws_numbers === true;
  return {
    bankId,
    items,
    takeaways,
    problems,
    skipped,
    total: rawItems.length,
    settings: readSettings(validation?.settings),
    drawsNumbers,
  };
}

/** The engine's reading of the bank's settings; anything else (an older engine) means none. */
function readSettings(value: unknown): BankSettings {
  const settings = isRecord(value) ? value : {};
  const draw = settings.draw;
  const passMark = settings.pass_mark;
  return {
    order: settings.order === 'shuffled' ? 'shuffled' : 'fixed',
    draw: typeof draw === 'number' && Number.isInteger(draw) && draw >= 1 ? draw : null,
    passMark: typeof passMark === 'number' && passMark >= 0 && passMark <= 1 ? passMark : null,
  };
}

/** One line per problem, for the author: “Question "zero-stages", options[2].feedback: must say why…”. */
export function describeProblem(problem: BankProblem, t: Translate = english): string {
  const values = { item: problem.item, field: problem.field, message: problem.message };
  if (problem.item) {
    return problem.field
      ? t('quizui.problem.in_item_field', 'Question \u201C{item}\u201D, {field}: {message}', values)
      : t('quizui.problem.in_item', 'Question \u201C{item}\u201D: {message}', values);
  }
  return problem.field
    ? t('quizui.problem.in_bank_field', 'The bank, {field}: {message}', values)
    : t('quizui.problem.in_bank', 'The bank: {message}', values);
}
