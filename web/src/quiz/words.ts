// Small pieces of the quiz's writing shared by its views: hints by kind, half points, and a
// translated sentence with one placeholder shown as an element.

import type { Child } from '../dom/dom';
import type { Translate } from '../i18n/i18n';

/** A CSS length for the score meter: not text, so never localised. */
export function cssPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/**
 * A translated sentence with one placeholder shown as an element (a <strong> answer): the
 * translator moves the placeholder, so the sentence is split around it rather than built in
 * English word order.
 */
export function withElement(template: string, name: string, element: Node): Child[] {
  const marker = `{${name}}`;
  const at = template.indexOf(marker);
  if (at < 0) return [template, ' ', element];
  return [template.slice(0, at), element, template.slice(at + marker.length)].filter((part) => part !== '');
}

/** Half points as "7½", whole ones as "7" (the count written by the engine). */
export function formatPoints(points: number, count: (value: number) => string): string {
  const whole = Math.floor(points + 1e-9);
  return points - whole > 0.25 ? (whole === 0 ? '½' : `${count(whole)}½`) : count(whole);
}

/** What a question of this kind asks for. */
export function kindHint(t: Translate, kind: string): string {
  switch (kind) {
    case 'single_choice':
      return t('quizui.hint.single_choice', 'Choose one answer.');
    case 'multiple_select':
      return t('quizui.hint.multiple_select', 'Select all that apply.');
    case 'numeric':
      return t('quizui.hint.numeric', 'Type a number with its unit.');
    case 'estimate':
      return t('quizui.hint.estimate', 'A rough estimate is enough: the right order of magnitude counts.');
    default:
      return '';
  }
}

/** The questions a score covers, as the summary names them ("lesson questions"; docs/quiz.md, "Sets"). */
export function setLabel(t: Translate, set: 'lesson' | 'deeper' | 'all'): string {
  switch (set) {
    case 'lesson':
      return t('quizui.set.lesson', 'lesson questions');
    case 'deeper':
      return t('quizui.set.deeper', 'deeper questions');
    default:
      return t('quizui.set.all', 'lesson and deeper questions');
  }
}
