// The learner's progress through the quiz, as plain data: what each question's seed is, how
// often it was tried, where it stands, and the last answer (so feedback comes back after a
// reload). Pure functions only: every change returns a new state. The serialized form is
// compact (ids, seeds, attempts, statuses, short answers; never prompts) so that it fits a SCORM
// cmi.suspend_data of 4,096 characters with room to spare.

import type { Answer, QuizScore, Takeaway } from './types';

export type ItemStatus = 'new' | 'correct' | 'incorrect' | 'revealed';
export type QuizMode = 'one' | 'all';
/** An item's set (docs/quiz.md, "Sets"): the lesson's questions, or the deeper ones past it. */
export type ItemSet = 'lesson' | 'deeper';
/** The questions a quiz asks: one set, or both ("all"). */
export type QuizSet = ItemSet | 'all';
export const QUIZ_SETS: readonly QuizSet[] = ['lesson', 'deeper', 'all'];

export interface ItemProgress {
  /** Which numbers the engine draws for this question (0: as authored). */
  seed: number;
  /** Answers that were graded (not-a-number and wrong-unit answers do not count). */
  attempts: number;
  status: ItemStatus;
  /** Whether the first graded answer was right; null before any. */
  firstTry: boolean | null;
  /** The last graded answer, to show its feedback again after a reload. */
  answer: Answer | null;
  /**
   * The solution was shown ("Show solution"). From then on a right answer to this question
   * scores nothing (itemCredit); only "Start again from scratch" clears it.
   */
  solutionSeen: boolean;
  /**
   * When the learner last changed this item (ms since 1970; 0: never). Two tabs, or two widgets
   * sharing a key, merge their saved states item by item: the later change wins (mergeProgress).
   */
  changedAt: number;
}

export interface QuizProgress {
  mode: QuizMode;
  /** The question shown in one-at-a-time mode, or null for the summary. */
  current: string | null;
  items: Record<string, ItemProgress>;
  /**
   * This learner's shuffle seed (1…MAX_SEED; 0: not drawn yet): with each question's seed it
   * fixes the order of the options (optionOrder), the same after a reload, new after "Try again".
   */
  learner: number;
  /** The learner went on from the set asked into the deeper questions (docs/quiz.md, "Sets"). */
  continued: boolean;
  /** Per takeaway id, once the learner answered a question of it (practice.ts; docs/quiz.md, "Practice"). */
  mastery: Record<string, TakeawayMastery>;
  /** The practice run on screen, or null (practice.ts). Page-level, like the current question. */
  practice: PracticeRun | null;
}

/** What the learner has shown of one takeaway: right answers in a row without show-me, and whether it is mastered. */
export interface TakeawayMastery {
  streak: number;
  /** A question of it was answered (or shown) since the start, or since "Start again from scratch". */
  started: boolean;
  /** Two right in a row without show-me, once: it stays so until "Start again from scratch". */
  mastered: boolean;
  /** When this changed (ms since 1970): two tabs merge it as they merge items, the later change winning. */
  changedAt: number;
}

/**
 * A practice run (docs/quiz.md, "Practice"): questions of one takeaway with fresh numbers, kept
 * apart from the scored questions. `item` is the question on screen, as any question's progress.
 */
export interface PracticeRun {
  takeaway: string;
  /** The bank item asked (its id in the bank). */
  itemId: string;
  item: ItemProgress;
  /** Practice questions asked in this run so far (turns the kinds over). */
  asked: number;
  /** The slip the engine named at the last wrong answer: the next question aims at it. */
  slip: string | null;
}

/** What the state needs to know about an item. */
export interface ItemInfo {
  id: string;
  takeaway: string;
  optionIds: readonly string[];
}

const STATUS_CODES: Record<ItemStatus, string> = { new: 'n', correct: 'c', incorrect: 'x', revealed: 'r' };
const CODE_STATUS: Record<string, ItemStatus> = { n: 'new', c: 'correct', x: 'incorrect', r: 'revealed' };
const SERIAL_VERSION = 1;
/** Typed answers longer than this are not kept (nobody types a 60-character number). */
export const MAX_SAVED_TEXT = 40;
/** Above this the answers are dropped from the saved state; statuses and seeds always fit. */
export const SAVED_STATE_BUDGET = 3500;
export const MAX_SEED = 99999;

export function freshItem(seed = 0, changedAt = 0): ItemProgress {
  return { seed, attempts: 0, status: 'new', firstTry: null, answer: null, solutionSeen: false, changedAt };
}

/** A fresh start; `changedAt` > 0 makes it a deliberate restart that wins over older answers elsewhere. */
export function initialProgress(items: readonly ItemInfo[], mode: QuizMode = 'one', changedAt = 0, learner = 0): QuizProgress {
  const progress: QuizProgress = {
    mode,
    current: items[0]?.id ?? null,
    items: {},
    learner,
    continued: false,
    mastery: {},
    practice: null,
  };
  for (const item of items) progress.items[item.id] = freshItem(0, changedAt);
  return progress;
}

function withItem(progress: QuizProgress, id: string, change: (item: ItemProgress) => ItemProgress): QuizProgress {
  if (!Object.prototype.hasOwnProperty.call(progress.items, id)) return progress;
  const item = progress.items[id]!;
  return { ...progress, items: { ...progress.items, [id]: change(item) } };
}

/** Later than both `now` and the item's last change, so a change always moves its time forward. */
function stamp(item: ItemProgress, now: number): number {
  return Math.max(Math.floor(now), item.changedAt + 1);
}

/** Records a graded answer. Answers the engine did not count leave the state as it was. */
export function recordAnswer(progress: QuizProgress, id: string, answer: Answer, correct: boolean, now = Date.now()): QuizProgress {
  return withItem(progress, id, (item) => ({
    ...item,
    attempts: item.attempts + 1,
    status: correct ? 'correct' : 'incorrect',
    firstTry: item.firstTry ?? correct,
    answer,
    changedAt: stamp(item, now),
  }));
}

/**
 * The learner asked for the solution: the question counts as missed until answered again, and
 * a later right answer to it scores nothing (itemCredit).
 */
export function revealSolution(progress: QuizProgress, id: string, now = Date.now()): QuizProgress {
  return withItem(progress, id, (item) =>
    item.status === 'correct' ? item : { ...item, status: 'revealed', solutionSeen: true, changedAt: stamp(item, now) },
  );
}

/**
 * The learner looked at the answer in the simulation ("Show me" marks the figure that holds it)
 * before answering right: as after "Show solution", a later right answer scores nothing
 * (itemCredit). The status stays, so the question still reads as answered wrongly.
 */
export function sawAnswerInSimulation(progress: QuizProgress, id: string, now = Date.now()): QuizProgress {
  return withItem(progress, id, (item) =>
    item.status === 'correct' || item.solutionSeen ? item : { ...item, solutionSeen: true, changedAt: stamp(item, now) },
  );
}

/** Asks the question again, with `seed` (new numbers for numeric items). Attempts are kept. */
export function retryItem(progress: QuizProgress, id: string, seed: number, now = Date.now()): QuizProgress {
  return withItem(progress, id, (item) => ({ ...item, seed, status: 'new', answer: null, changedAt: stamp(item, now) }));
}

/**
 * Merges two saved states of the same quiz (another tab's, or another widget's with the same
 * key) item by item: each item keeps its latest change (changedAt); on a tie, the one with more
 * graded attempts, then `mine`. Latest rather than best: a deliberate "Try again" or "Start again
 * from scratch" in one tab must not be undone by an older right answer in another. Page-level
 * choices (mode, current question) stay `mine`'s: they belong to the page the learner is looking at.
 */
export function mergeProgress(mine: QuizProgress, theirs: QuizProgress): QuizProgress {
  const items: Record<string, ItemProgress> = { ...mine.items };
  for (const id of Object.keys(mine.items)) {
    if (!Object.prototype.hasOwnProperty.call(theirs.items, id)) continue;
    const own = mine.items[id]!;
    const other = theirs.items[id]!;
    if (other.changedAt > own.changedAt || (other.changedAt === own.changedAt && other.attempts > own.attempts)) items[id] = other;
  }
  const mastery: Record<string, TakeawayMastery> = { ...mine.mastery };
  for (const [id, other] of Object.entries(theirs.mastery)) {
    const own = Object.prototype.hasOwnProperty.call(mine.mastery, id) ? mine.mastery[id] : undefined;
    if (!own || other.changedAt > own.changedAt) mastery[id] = other;
  }
  // The shuffle seed is page-level too, but a state that has none takes the other's.
  return { ...mine, items, mastery, learner: mine.learner || theirs.learner };
}

/** Whether `merged` differs from `before` in any item (so a page knows what to redraw). */
export function changedItemIds(before: QuizProgress, after: QuizProgress): string[] {
  return Object.keys(after.items).filter((id) => before.items[id] !== after.items[id]);
}

/** Whether the merge brought another tab's mastery of a takeaway. */
export function masteryChanged(before: QuizProgress, after: QuizProgress): boolean {
  return Object.keys(after.mastery).some((id) => before.mastery[id] !== after.mastery[id]);
}

/** A seed in 1…MAX_SEED that differs from `previous`. */
export function nextSeed(previous: number, random: () => number): number {
  for (let tries = 0; tries < 8; tries += 1) {
    const seed = 1 + Math.floor(random() * MAX_SEED);
    if (seed !== previous && seed >= 1 && seed <= MAX_SEED) return seed;
  }
  return (previous % MAX_SEED) + 1;
}

export function isAnswered(item: ItemProgress | undefined): boolean {
  return !!item && item.status !== 'new';
}

/** Ids of questions answered wrongly or whose solution was shown, in bank order. */
export function missedIds(progress: QuizProgress, items: readonly ItemInfo[]): string[] {
  return items
    .filter((item) => {
      const status = progress.items[item.id]?.status;
      return status === 'incorrect' || status === 'revealed';
    })
    .map((item) => item.id);
}

/** Asks every missed question again with new seeds; shows the first of them. */
export function retryMissed(progress: QuizProgress, items: readonly ItemInfo[], random: () => number): QuizProgress {
  const missed = missedIds(progress, items);
  let next = progress;
  for (const id of missed) next = retryItem(next, id, nextSeed(next.items[id]!.seed, random));
  return { ...next, current: missed[0] ?? next.current };
}

/** The question after `from` (wrapping round) that is still unanswered; null when none is. */
export function nextUnanswered(progress: QuizProgress, items: readonly ItemInfo[], from: string | null): string | null {
  const start = from === null ? -1 : items.findIndex((item) => item.id === from);
  for (let step = 1; step <= items.length; step += 1) {
    const item = items[(start + step + items.length) % items.length]!;
    if (!isAnswered(progress.items[item.id])) return item.id;
  }
  return null;
}

/** What a later right answer is worth: a retry after a wrong answer, the solution not shown. */
export const RETRY_CREDIT = 0.5;

/**
 * What one question adds to the score (docs/quiz.md, "Scoring"): 1 when its first graded answer
 * was right, RETRY_CREDIT when a later try was, nothing once its solution has been shown
 * (whatever is answered afterwards), nothing while it is unanswered or wrong.
 */
export function itemCredit(item: ItemProgress | undefined): number {
  if (!item || item.status !== 'correct' || item.solutionSeen) return 0;
  return item.firstTry === true ? 1 : RETRY_CREDIT;
}

/** The score the page shows, the `trainscope-score` event carries and the LMS receives. */
export function score(progress: QuizProgress, items: readonly ItemInfo[], passMark?: number | null): QuizScore {
  const max = items.length;
  let right = 0;
  let points = 0;
  let answered = 0;
  for (const item of items) {
    const state = progress.items[item.id];
    if (state?.status === 'correct') right += 1;
    points += itemCredit(state);
    if (isAnswered(state)) answered += 1;
  }
  const correct = points;
  const scaled = max > 0 ? correct / max : 0;
  const completed = max > 0 && answered === max;
  const mark = validPassMark(passMark);
  let passed: boolean | null = null;
  if (mark !== null) {
    if (scaled >= mark - 1e-12) passed = true;
    else if (completed) passed = false;
  }
  return { score: correct, max, scaled, passed, completed, answered, right };
}

export function validPassMark(passMark: unknown): number | null {
  return typeof passMark === 'number' && Number.isFinite(passMark) && passMark >= 0 && passMark <= 1 ? passMark : null;
}

export interface TakeawayToRevisit {
  takeaway: Takeaway;
  /** Missed questions about it, in bank order. */
  itemIds: string[];
}

export interface Summary extends QuizScore {
  /** Questions whose first graded answer was right. */
  firstTry: number;
  missed: string[];
  revisit: TakeawayToRevisit[];
}

/** Score plus what to revisit: each takeaway with a missed question, in the bank's order. */
export function summarize(
  progress: QuizProgress,
  items: readonly ItemInfo[],
  takeaways: readonly Takeaway[],
  passMark?: number | null,
): Summary {
  const missed = missedIds(progress, items);
  const byTakeaway = new Map<string, string[]>();
  for (const id of missed) {
    const takeaway = items.find((item) => item.id === id)?.takeaway ?? '';
    byTakeaway.set(takeaway, [...(byTakeaway.get(takeaway) ?? []), id]);
  }
  const revisit: TakeawayToRevisit[] = [];
  for (const takeaway of takeaways) {
    const ids = byTakeaway.get(takeaway.id);
    if (ids) revisit.push({ takeaway, itemIds: ids });
    byTakeaway.delete(takeaway.id);
  }
  // Items naming a takeaway the bank does not list still point somewhere.
  for (const [id, ids] of byTakeaway) revisit.push({ takeaway: { id, text: id || 'Other questions' }, itemIds: ids });
  const firstTry = items.filter((item) => progress.items[item.id]?.firstTry === true).length;
  return { ...score(progress, items, passMark), firstTry, missed, revisit };
}

// ---------------------------------------------------------------------------------------------
// Saved form: {"v":1,"m":"o","c":"item-id","s":learner,"d":1,"i":{"item-id":[seed,attempts,"x",first,answer,changedAt,solution]}}
// d: 1 once the learner went on into the deeper questions, else absent (as in states saved before sets);
// first: 1, 0 or -1 (none); answer: typed text, an array of option indices, or 0 (none);
// changedAt: ms since 1970 (absent in states written before merging existed: read as 0);
// solution: 1 once the solution was shown, else absent (states written before scoring by try).

type SavedItem =
  [number, number, string, number, string | number[] | 0, number] | [number, number, string, number, string | number[] | 0, number, 1];
// k: mastery per takeaway, {"takeaway-id":[streak,level,changedAt]} (level 0 not started, 1 started, 2 mastered); absent when none.
// p: the practice run, ["takeaway-id","item-id",asked,slip or 0,[seed,attempts,"x",first,answer,changedAt,solution]];
// its answer keeps option ids (the item may lie outside the questions asked), absent when none.

function encodeItem(state: ItemProgress, answer: string | number[] | string[] | 0): (number | string | number[] | string[])[] {
  const entry = [
    state.seed,
    state.attempts,
    STATUS_CODES[state.status],
    state.firstTry === null ? -1 : state.firstTry ? 1 : 0,
    answer,
    state.changedAt,
  ];
  return state.solutionSeen ? [...entry, 1] : entry;
}

function encodePractice(progress: QuizProgress): Record<string, unknown> {
  const saved: Record<string, unknown> = {};
  const mastery = Object.entries(progress.mastery);
  if (mastery.length > 0)
    saved.k = Object.fromEntries(mastery.map(([id, m]) => [id, [m.streak, m.mastered ? 2 : m.started ? 1 : 0, m.changedAt]]));
  const run = progress.practice;
  if (run) {
    const answer = !run.item.answer
      ? 0
      : 'text' in run.item.answer
        ? run.item.answer.text.slice(0, MAX_SAVED_TEXT)
        : run.item.answer.choices;
    saved.p = [run.takeaway, run.itemId, run.asked, run.slip ?? 0, encodeItem(run.item, answer)];
  }
  return saved;
}

function encodeAnswer(answer: Answer | null, optionIds: readonly string[]): string | number[] | 0 {
  if (!answer) return 0;
  if ('text' in answer) return answer.text.length <= MAX_SAVED_TEXT ? answer.text : 0;
  const indices = answer.choices.map((id) => optionIds.indexOf(id));
  return indices.every((index) => index >= 0) ? indices : 0;
}

export function serializeProgress(progress: QuizProgress, items: readonly ItemInfo[]): string {
  const build = (withAnswers: boolean) => {
    const saved: Record<string, SavedItem> = {};
    for (const item of items) {
      const state = progress.items[item.id];
      if (!state) continue;
      saved[item.id] = encodeItem(state, withAnswers ? encodeAnswer(state.answer, item.optionIds) : 0) as SavedItem;
    }
    const learner = progress.learner > 0 ? { s: progress.learner } : {};
    const continued = progress.continued ? { d: 1 } : {};
    return JSON.stringify({
      v: SERIAL_VERSION,
      m: progress.mode === 'all' ? 'a' : 'o',
      c: progress.current,
      ...learner,
      ...continued,
      i: saved,
      ...encodePractice(progress),
    });
  };
  const full = build(true);
  return full.length <= SAVED_STATE_BUDGET ? full : build(false);
}

function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function decodeAnswer(value: unknown, optionIds: readonly string[]): Answer | null {
  if (typeof value === 'string') return value.length <= MAX_SAVED_TEXT ? { text: value } : null;
  if (Array.isArray(value) && value.length > 0 && value.every((index) => isInteger(index, 0, optionIds.length - 1))) {
    return { choices: (value as number[]).map((index) => optionIds[index]!) };
  }
  return null;
}

/** One saved question ([seed, attempts, status, first, answer, changedAt, solution]), or null when it cannot be trusted. */
function decodeItem(entry: unknown[], readAnswer: (answer: unknown) => Answer | null): ItemProgress | null {
  const [seed, attempts, code, first, answer, changedAt, solution] = entry;
  // Own properties only: "constructor" or "toString" must not find Object.prototype's.
  const status = typeof code === 'string' && Object.prototype.hasOwnProperty.call(CODE_STATUS, code) ? CODE_STATUS[code] : undefined;
  if (!isInteger(seed, 0, 0xffffffff) || !isInteger(attempts, 0, 1_000_000) || !status) return null;
  if (changedAt !== undefined && !isInteger(changedAt, 0, Number.MAX_SAFE_INTEGER)) return null;
  return {
    seed,
    attempts,
    // A graded status needs an attempt behind it; anything else is not trusted.
    status: (status === 'correct' || status === 'incorrect') && attempts === 0 ? 'new' : status,
    firstTry: attempts > 0 && (first === 1 || first === 0) ? first === 1 : null,
    answer: status === 'correct' || status === 'incorrect' || status === 'revealed' ? readAnswer(answer) : null,
    // A solution shown is read from the status too, for states saved before the flag existed.
    solutionSeen: solution === 1 || status === 'revealed',
    changedAt: (changedAt as number | undefined) ?? 0,
  };
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SHORT_ID = /^[a-z0-9_-]{1,64}$/;

function decodeMastery(value: unknown): Record<string, TakeawayMastery> {
  const mastery: Record<string, TakeawayMastery> = {};
  if (!isPlainRecord(value)) return mastery;
  for (const [id, entry] of Object.entries(value)) {
    if (!SHORT_ID.test(id) || !Array.isArray(entry)) continue;
    const [streak, level, changedAt] = entry as unknown[];
    if (!isInteger(streak, 0, 1_000_000) || !isInteger(level, 0, 2) || !isInteger(changedAt, 0, Number.MAX_SAFE_INTEGER)) continue;
    mastery[id] = { streak, started: level >= 1, mastered: level === 2, changedAt };
  }
  return mastery;
}

function decodePractice(value: unknown): PracticeRun | null {
  if (!Array.isArray(value)) return null;
  const [takeaway, itemId, asked, slip, entry] = value as unknown[];
  if (typeof takeaway !== 'string' || !SHORT_ID.test(takeaway) || typeof itemId !== 'string' || !SHORT_ID.test(itemId)) return null;
  if (!isInteger(asked, 0, 1_000_000) || !Array.isArray(entry)) return null;
  const item = decodeItem(entry, (answer) => {
    if (typeof answer === 'string') return answer.length <= MAX_SAVED_TEXT ? { text: answer } : null;
    if (Array.isArray(answer) && answer.length > 0 && answer.every((id) => typeof id === 'string' && SHORT_ID.test(id)))
      return { choices: answer as string[] };
    return null;
  });
  if (!item) return null;
  return { takeaway, itemId, asked, slip: typeof slip === 'string' && SHORT_ID.test(slip) ? slip : null, item };
}

/**
 * Reads a saved state against the items the bank has now. Anything unreadable (garbage,
 * another version, a removed question) falls back to a fresh start for what it concerns;
 * this never throws.
 */
export function deserializeProgress(text: string | null | undefined, items: readonly ItemInfo[]): QuizProgress {
  const fresh = initialProgress(items);
  if (typeof text !== 'string' || text.length === 0 || text.length > 100_000) return fresh;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fresh;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fresh;
  const record = data as Record<string, unknown>;
  if (record.v !== SERIAL_VERSION) return fresh;
  const progress: QuizProgress = { ...fresh, items: { ...fresh.items } };
  progress.mode = record.m === 'a' ? 'all' : 'one';
  progress.learner = isInteger(record.s, 1, MAX_SEED) ? record.s : 0;
  progress.continued = record.d === 1;
  const saved = typeof record.i === 'object' && record.i !== null && !Array.isArray(record.i) ? (record.i as Record<string, unknown>) : {};
  for (const item of items) {
    if (!Object.prototype.hasOwnProperty.call(saved, item.id)) continue;
    const entry = saved[item.id];
    if (!Array.isArray(entry)) continue;
    const read = decodeItem(entry, (answer) => decodeAnswer(answer, item.optionIds));
    if (read) progress.items[item.id] = read;
  }
  progress.mastery = decodeMastery(record.k);
  progress.practice = decodePractice(record.p);
  const current = record.c;
  progress.current =
    current === null
      ? null
      : typeof current === 'string' && Object.prototype.hasOwnProperty.call(progress.items, current)
        ? current
        : fresh.current;
  return progress;
}

// ---------------------------------------------------------------------------------------------
// Option order

/** FNV-1a over the text, then mixed with the numbers: a 32-bit key, the same on every browser. */
function shuffleKey(itemId: string, learner: number, seed: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < itemId.length; i += 1) hash = Math.imul(hash ^ itemId.charCodeAt(i), 0x01000193) >>> 0;
  hash = Math.imul(hash ^ learner, 0x85ebca6b) >>> 0;
  hash = Math.imul(hash ^ seed, 0xc2b2ae35) >>> 0;
  return hash;
}

/**
 * The order in which this learner sees a choice question's options: a Fisher–Yates shuffle
 * drawn from (item id, learner seed, question seed), so it stays put across reloads and changes
 * when "Try again" draws a new question seed. Only the order changes: ids stay the authored
 * ones, so saved answers, grading and SCORM interactions still name the same options.
 */
export function optionOrder<T>(options: readonly T[], itemId: string, learner: number, seed: number): T[] {
  const order = options.slice();
  let state = shuffleKey(itemId, learner, seed) || 1;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

// ---------------------------------------------------------------------------------------------
// Which questions, in which order

/**
 * The questions this learner is asked (docs/quiz.md, "The bank"): with `draw`, that many, picked
 * from the learner's seed; with `order: shuffled`, in an order of the learner's own, else in the
 * bank's. Drawn from the learner seed alone, so a reload, another tab and "Start again" ask the
 * same questions, and the saved progress keeps fitting them.
 */
export function selectItems<T>(items: readonly T[], settings: { order: 'fixed' | 'shuffled'; draw: number | null }, learner: number): T[] {
  const count = settings.draw === null ? items.length : Math.min(settings.draw, items.length);
  if (settings.order === 'fixed' && count === items.length) return items.slice();
  const shuffled = optionOrder(
    items.map((item, index) => ({ item, index })),
    'bank:questions',
    learner,
    0,
  ).slice(0, count);
  if (settings.order === 'fixed') shuffled.sort((a, b) => a.index - b.index);
  return shuffled.map((entry) => entry.item);
}

// ---------------------------------------------------------------------------------------------
// Which set

export interface SetChoice<T> {
  /** The set asked, after the fallback: the one wanted, or "all" when the bank has none of it. */
  set: QuizSet;
  /** The questions of that set, in the bank's order, before any draw. */
  asked: T[];
  /** The deeper questions a learner may go on to after the lesson set; empty otherwise. */
  further: T[];
  /** The bank has questions in both sets, so the score names the set it covers. */
  labelled: boolean;
  /** The set wanted had no question, so every question is asked. */
  fellBack: boolean;
}

/**
 * The questions asked for the set the author chose (docs/quiz.md, "Sets"): the lesson set by
 * default, with the deeper questions as a further set the learner may go on to; "deeper" or "all"
 * ask those alone. A bank with no question in the set wanted asks every question: a bank written
 * before sets (every item a lesson item) asks what it always did.
 */
export function chooseSet<T extends { set: ItemSet }>(items: readonly T[], wanted: QuizSet): SetChoice<T> {
  const lesson = items.filter((item) => item.set === 'lesson');
  const deeper = items.filter((item) => item.set === 'deeper');
  const labelled = lesson.length > 0 && deeper.length > 0;
  const chosen = wanted === 'lesson' ? lesson : wanted === 'deeper' ? deeper : items.slice();
  if (chosen.length === 0) return { set: 'all', asked: items.slice(), further: [], labelled, fellBack: items.length > 0 };
  return { set: wanted, asked: chosen, further: wanted === 'lesson' ? deeper : [], labelled, fellBack: false };
}
