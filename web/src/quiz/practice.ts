// Practice per takeaway, and mastery (docs/quiz.md, "Practice"): pure functions on the progress,
// no DOM, unit-tested under node. A takeaway is mastered after MASTERY_STREAK right answers in a
// row, none after its solution or "show me"; every graded answer counts, the scored questions' and
// the practice's alike. Which question follows a slip is the bank's data (an item's `practises`,
// checked by the engine), not a rule written here: this file only looks it up.

import { freshItem, type ItemProgress, type PracticeRun, type QuizProgress, type TakeawayMastery } from './state';
import type { MasteryState, TakeawayProgress, Takeaway } from './types';

/** Right answers in a row, without the solution or "show me", that make a takeaway mastered. */
export const MASTERY_STREAK = 2;

/** What practice needs to know of a bank item. */
export interface PracticeItemInfo {
  id: string;
  takeaway: string;
  kind: string;
  /** The slips (misconception ids) this item is the next practice question for (the bank's `practises`). */
  practises: readonly string[];
}

export function masteryState(progress: QuizProgress, takeaway: string): MasteryState {
  const entry = Object.prototype.hasOwnProperty.call(progress.mastery, takeaway) ? progress.mastery[takeaway] : undefined;
  return !entry || !entry.started ? 'not-started' : entry.mastered ? 'mastered' : 'practising';
}

function withMastery(
  progress: QuizProgress,
  takeaway: string,
  change: (entry: TakeawayMastery) => TakeawayMastery,
  now: number,
): QuizProgress {
  const before = Object.prototype.hasOwnProperty.call(progress.mastery, takeaway)
    ? progress.mastery[takeaway]!
    : { streak: 0, started: false, mastered: false, changedAt: 0 };
  const after = { ...change(before), changedAt: Math.max(Math.floor(now), before.changedAt + 1) };
  return { ...progress, mastery: { ...progress.mastery, [takeaway]: after } };
}

/**
 * A graded answer to a question of `takeaway` (scored or practice). `clean`: its solution was not
 * shown, nor the simulation that holds it. Returns the progress and whether this answer made the
 * takeaway mastered (then the quiz tells the host).
 */
export function noteAnswer(
  progress: QuizProgress,
  takeaway: string,
  correct: boolean,
  clean: boolean,
  now = Date.now(),
): { progress: QuizProgress; mastered: boolean } {
  const was = masteryState(progress, takeaway) === 'mastered';
  const next = withMastery(
    progress,
    takeaway,
    (entry) => {
      const streak = correct && clean ? entry.streak + 1 : 0;
      return { ...entry, streak, started: true, mastered: entry.mastered || streak >= MASTERY_STREAK };
    },
    now,
  );
  return { progress: next, mastered: !was && masteryState(next, takeaway) === 'mastered' };
}

/** The solution or the simulation was shown for a question of `takeaway`: the streak starts again. */
export function noteShown(progress: QuizProgress, takeaway: string, now = Date.now()): QuizProgress {
  return withMastery(progress, takeaway, (entry) => ({ ...entry, streak: 0, started: true }), now);
}

/** "Start again from scratch": every takeaway not started, stamped so that the restart wins over older saves elsewhere. */
export function resetMastery(progress: QuizProgress, takeaways: readonly string[], now = Date.now()): QuizProgress {
  let next: QuizProgress = { ...progress, practice: null };
  for (const takeaway of takeaways)
    next = withMastery(next, takeaway, () => ({ streak: 0, started: false, mastered: false, changedAt: 0 }), now);
  return next;
}

/**
 * The takeaway's questions in the order practice asks them: one of each kind in turn (the bank's
 * order within a kind), so two questions in a row are not the same idea with new numbers.
 */
export function practiceOrder(pool: readonly PracticeItemInfo[], takeaway: string): PracticeItemInfo[] {
  const byKind = new Map<string, PracticeItemInfo[]>();
  for (const item of pool) if (item.takeaway === takeaway) byKind.set(item.kind, [...(byKind.get(item.kind) ?? []), item]);
  const groups = [...byKind.values()];
  const order: PracticeItemInfo[] = [];
  for (let round = 0; order.length < groups.reduce((sum, group) => sum + group.length, 0); round += 1)
    for (const group of groups) if (group[round]) order.push(group[round]!);
  return order;
}

/**
 * The next practice question for `takeaway`: after a slip the engine named, a question that
 * practises it (the bank's `practises`; one of the takeaway first, else any); otherwise the
 * takeaway's next question in practiceOrder. Never the question just asked when another exists.
 */
export function nextPracticeItem(
  pool: readonly PracticeItemInfo[],
  takeaway: string,
  slip: string | null,
  previousId: string | null,
  asked: number,
): string | null {
  if (slip) {
    const aimed = pool.filter((item) => item.id !== previousId && item.practises.includes(slip));
    const own = aimed.filter((item) => item.takeaway === takeaway);
    const chosen = own[0] ?? aimed[0];
    if (chosen) return chosen.id;
  }
  const order = practiceOrder(pool, takeaway);
  if (order.length === 0) return null;
  for (let step = 0; step < order.length; step += 1) {
    const candidate = order[(asked + step) % order.length]!;
    if (candidate.id !== previousId || order.length === 1) return candidate.id;
  }
  return order[0]!.id;
}

/** A practice question on screen, with `seed` (fresh numbers) and nothing answered yet. */
export function askPractice(
  progress: QuizProgress,
  run: Pick<PracticeRun, 'takeaway' | 'asked' | 'slip'>,
  itemId: string,
  seed: number,
  now = Date.now(),
): QuizProgress {
  const item: ItemProgress = freshItem(seed, Math.floor(now));
  return { ...progress, practice: { takeaway: run.takeaway, itemId, item, asked: run.asked + 1, slip: null } };
}

/**
 * One of state.ts's changes to a question (recordAnswer, revealSolution, retryItem), made to the
 * practice question: the same rules for a practice answer as for a scored one. `slip`, when
 * given, is the one the engine named at this answer (null for none).
 */
export function changePractice(
  progress: QuizProgress,
  change: (progress: QuizProgress, id: string) => QuizProgress,
  slip?: string | null,
): QuizProgress {
  const run = progress.practice;
  if (!run) return progress;
  const item = change({ ...progress, items: { [run.itemId]: run.item } }, run.itemId).items[run.itemId] ?? run.item;
  return { ...progress, practice: { ...run, item, slip: slip === undefined ? run.slip : slip } };
}

/**
 * Each takeaway of the bank, in its order, as the score event reports it: its questions in the
 * scored set, how many were right at the first try, and its mastery.
 */
export function takeawayProgress(
  progress: QuizProgress,
  scored: readonly { id: string; takeaway: string }[],
  takeaways: readonly Takeaway[],
): TakeawayProgress[] {
  return takeaways.map((takeaway) => {
    const items = scored.filter((item) => item.takeaway === takeaway.id);
    return {
      id: takeaway.id,
      title: takeaway.text,
      items: items.length,
      firstTryCorrect: items.filter((item) => progress.items[item.id]?.firstTry === true).length,
      mastery: masteryState(progress, takeaway.id),
    };
  });
}
