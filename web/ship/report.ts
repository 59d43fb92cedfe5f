// What an LMS records of the quiz besides its score (docs/embedding.md, "What the course sees"):
// one interaction per question (its latest answer) and one objective per takeaway (the first-try
// share of its questions and its mastery), shared by the SCORM 1.2 and 2004 sessions and the xAPI
// statements. Everything here is plain data; the sessions write it in their data model's words,
// within its limits (SCORM 1.2 RTE §3.4.2: CMIIdentifier, CMIFeedback; SCORM 2004 RTE 4.1.1:
// long_identifier_type, localized_string_type, characterstring SPMs), never failing because of them.

import { languageFromTag, type Language } from '../src/i18n/i18n';
import type { AnswerDetail, ScoreDetail } from '../src/quiz/types';

/** The practice helper's per-takeaway progress on ScoreDetail (docs/quiz.md); read only when present. */
export type MasteryState = 'not-started' | 'practising' | 'mastered';
export interface TakeawayState {
  id: string;
  title: string;
  items: number;
  firstTryCorrect: number;
  mastery: MasteryState;
}

/** The most interactions a report writes: SCORM 2004's smallest permitted maximum (RTE 4.2.9). */
export const MAX_INTERACTIONS = 250;
/** The most objectives a report writes: SCORM 2004's smallest permitted maximum (RTE 4.2.18). */
export const MAX_OBJECTIVES = 100;
/** SCORM 1.2's CMIIdentifier and CMIFeedback hold 255 characters (RTE §3.4.2). */
export const SCORM12_TEXT = 255;
/** SCORM 2004's localized strings and each fill-in response hold 250 characters (RTE 4.1.1.7, 4.2.9.1). */
export const SCORM2004_TEXT = 250;

/** A short hash (FNV-1a, base 36): the same text always gives the same letters. */
export function shortHash(text: string, length = 6): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0').slice(-length);
}

/**
 * An id an LMS accepts as SCORM 1.2's CMIIdentifier and SCORM 2004's identifiers: letters, digits
 * and `-_.:` only, at most `max` characters. A bank id already like that is kept as it is; any
 * other is cleaned and shortened with a hash of the original, so two ids never become one.
 */
export function lmsId(raw: string, max = SCORM12_TEXT): string {
  if (/^[A-Za-z0-9_.:-]+$/.test(raw) && raw.length <= max) return raw;
  const hash = shortHash(raw, 6);
  const clean = raw.replace(/[^A-Za-z0-9_.:-]+/g, '_').slice(0, Math.max(0, max - hash.length - 1));
  return `${clean}-${hash}`;
}

/** At most `max` UTF-16 units (as the data models count), cut between characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/** A text on one line: runs of white space (new lines, tabs) become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A question's name in its own words: the prompt's first sentence (to its first . ? or ! that
 * ends a sentence, not a decimal point), on one line, within `max` characters.
 */
export function questionName(prompt: string, max = 120): string {
  const line = oneLine(prompt);
  const end = /[.?!](\s|$)/.exec(line);
  const sentence = end ? line.slice(0, end.index + 1) : line;
  return clip(sentence || line, max);
}

/** SCORM's interaction type: choices are `choice`; typed quantities (a number with a unit, read with a tolerance) are `fill-in`. */
export function interactionType(answer: Pick<AnswerDetail, 'kind'>): 'choice' | 'fill-in' {
  return answer.kind === 'single_choice' || answer.kind === 'multiple_select' ? 'choice' : 'fill-in';
}

/** The chosen option ids of a choice answer (its response joins them with "[,]"). */
export function chosenOptions(answer: Pick<AnswerDetail, 'response'>): string[] {
  return answer.response === '' ? [] : answer.response.split('[,]');
}

/** An answer an LMS records: graded (a shown solution answers nothing), with a question id. */
export function reportable(answer: AnswerDetail | null | undefined): answer is AnswerDetail {
  return !!answer && !answer.revealed && typeof answer.itemId === 'string' && answer.itemId !== '';
}

function isTakeawayState(value: unknown): value is TakeawayState {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.id === 'string' &&
    entry.id !== '' &&
    Number.isFinite(entry.items) &&
    Number.isFinite(entry.firstTryCorrect) &&
    (entry.mastery === 'not-started' || entry.mastery === 'practising' || entry.mastery === 'mastered')
  );
}

/**
 * Each takeaway's state as the quiz reports it (ScoreDetail.takeaways); without that field (a quiz
 * without practice), what the answers of this page so far show: the takeaways answered, each with
 * the questions answered and those right at the first try (credit 1), never mastered.
 */
export function takeawayStates(detail: ScoreDetail, answers: Iterable<AnswerDetail>): TakeawayState[] {
  const given = (detail as ScoreDetail & { takeaways?: unknown }).takeaways;
  if (Array.isArray(given)) {
    return given.filter(isTakeawayState).map((entry) => ({
      id: entry.id,
      title: typeof entry.title === 'string' ? entry.title : '',
      items: Math.max(0, entry.items),
      firstTryCorrect: Math.min(Math.max(0, entry.firstTryCorrect), Math.max(0, entry.items)),
      mastery: entry.mastery,
    }));
  }
  const byTakeaway = new Map<string, Map<string, boolean>>();
  const titles = new Map<string, string>();
  for (const answer of answers) {
    if (!answer.takeaway) continue;
    if (answer.takeawayTitle) titles.set(answer.takeaway, answer.takeawayTitle);
    const items = byTakeaway.get(answer.takeaway) ?? new Map<string, boolean>();
    // The first answer of a question says whether it was right at the first try.
    if (!items.has(answer.itemId)) items.set(answer.itemId, answer.credit === 1);
    byTakeaway.set(answer.takeaway, items);
  }
  return [...byTakeaway].map(([id, items]) => ({
    id,
    title: titles.get(id) ?? '',
    items: items.size,
    firstTryCorrect: [...items.values()].filter(Boolean).length,
    mastery: 'practising' as const,
  }));
}

/** A takeaway's first-try share, 0..1 (0 without questions), to four decimals. */
export function takeawayScaled(state: TakeawayState): number {
  return state.items > 0 ? Math.round((state.firstTryCorrect / state.items) * 10000) / 10000 : 0;
}

/** SCORM 1.2's CMITime (the time of day, HH:MM:SS) for an instant. */
export function timeOfDay(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** SCORM 2004's time (second,10,0): UTC, to the hundredth of a second (RTE 4.1.1.5). */
export function timestamp2004(at: Date): string {
  return `${at.toISOString().slice(0, 22)}Z`;
}

/** Language names an LMS may give instead of a tag (SCORM 1.2's student_preference.language is free text). */
const LANGUAGE_NAMES: Readonly<Record<string, Language>> = {
  english: 'en',
  german: 'de',
  deutsch: 'de',
  spanish: 'es',
  español: 'es',
  espanol: 'es',
  castellano: 'es',
};

/**
 * The widget's language for an LMS's language preference: the first of a list ("de-DE, en") the
 * widget has words for, by tag ("de", "de-AT", "es_ES") or by name ("German"); null for none.
 */
export function lmsLanguage(preference: string | null | undefined): Language | null {
  for (const entry of (preference ?? '').split(/[,;]/)) {
    const word = entry.trim().toLowerCase();
    if (!word) continue;
    const language = languageFromTag(word.split(/\s/)[0]) ?? LANGUAGE_NAMES[word] ?? null;
    if (language) return language;
  }
  return null;
}

/** Elapsed time as an ISO 8601 duration, SCORM 2004's timeinterval (second,10,2) and xAPI's duration (RTE 4.1.1.6). */
export function formatDuration(milliseconds: number): string {
  const centiseconds = Math.max(0, Math.round(milliseconds / 10));
  const hours = Math.floor(centiseconds / 360000);
  const minutes = Math.floor((centiseconds % 360000) / 6000);
  const seconds = (centiseconds % 6000) / 100;
  return `PT${hours > 0 ? `${hours}H` : ''}${minutes > 0 ? `${minutes}M` : ''}${Number(seconds.toFixed(2))}S`;
}
