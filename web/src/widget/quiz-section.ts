// "Check your understanding" inside the widget: graded by the engine, speaking the widget's
// language; "show me" loads an item's scenario into the figures above.

import { h } from '../dom/dom';
import type { Engine } from '../engine/engine';
import type { WidgetLanguage } from '../i18n/i18n';
import { mountQuiz, type BankTranslations, type QuizHandle, type ShowMeTarget } from '../quiz/quiz';
import defaultBank from '../../quiz/bank.json';
import { whenNear } from './lazy';
import type { MountOptions } from './options';

export interface QuizSection {
  readonly element: HTMLElement;
  destroy(): void;
}

/**
 * A plain box: the quiz brings its own labelled region. Preparing the bank validates every item and
 * asks the engine for each, so it waits until the quiz nears the viewport or the browser is idle:
 * the figures above paint first. `onShowMe` is null where no simulation is shown.
 */
export function quizSection(
  engine: Engine,
  words: WidgetLanguage,
  options: MountOptions,
  headingLevel: number,
  onShowMe: ((scenario: object, target: ShowMeTarget) => void) | null,
): QuizSection {
  const element = h('div', { className: 'ts-section ts-quiz', 'data-ts-section': 'quiz' });
  let quiz: QuizHandle | null = null;
  let stopXapi: (() => void) | null = null;
  let cancel: (() => void) | null = whenNear(element, () => {
    cancel = null;
    quiz = mountQuiz(element, {
      t: words.t,
      language: words.language,
      // The built-in bank's translations from the language pack.
      bankTranslations: (words.pack?.bank ?? undefined) as BankTranslations | undefined,
      authorBank: options.quizBank,
      engine: engine.quiz,
      bank: options.quizBank?.bank ?? defaultBank,
      bankName: options.quizBank?.name,
      bankProblem: options.quizBank?.problem ?? undefined,
      onShowInSimulation: onShowMe ?? undefined,
      storage: options.quizStorage,
      passMark: options.passMark,
      set: options.quizSet,
      draw: options.quizDraw,
      practiceCounts: options.quizPracticeCounts,
      instanceKey: options.instanceKey,
      headingLevel,
    });
    // Every answer and the completion also leave as xAPI statements, for a host with an LRS.
    if (options.xapi) stopXapi = options.xapi(element, { activity: options.xapiActivity });
    element.setAttribute('data-ts-quiz-ready', 'true');
  });
  return {
    element,
    destroy() {
      cancel?.();
      stopXapi?.();
      quiz?.destroy();
    },
  };
}
