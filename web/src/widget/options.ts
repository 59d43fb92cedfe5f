// What a host passes to mountTrainscope and what it gets back (docs/embedding.md).

import type { Engine } from '../engine/engine';
import type { Estimate, PartialScenario, Scenario } from '../engine/types';
import type { Language, Translate } from '../i18n/i18n';
import type { QuizStorage } from '../quiz/quiz';
import type { QuizSet } from '../quiz/state';
import type { AuthorBank } from '../quiz/source';
import type { emitXapi } from '../../ship/xapi';
import type { Section } from './parts-plan';

export type { Section } from './parts-plan';
export { DEFAULT_SECTIONS, isSection, SECTION_NAMES } from './parts-plan';
export type Theme = 'light' | 'dark' | 'auto';

export interface MountOptions {
  /** A starting scenario (over the engine's defaults). The URL hash wins when syncHash is on. */
  scenario?: PartialScenario;
  /** Keep the scenario in location.hash (#s=…). Default: true. */
  syncHash?: boolean;
  /** Add the stylesheet to the root's document or shadow root. Default: true. */
  injectStyles?: boolean;
  /** Which parts to show (widget/parts-plan.ts, docs/embedding.md): lesson parts, deeper parts, the quiz, or
   *  groups of them. Default: the lesson path, the quiz, and every deeper part behind its disclosure. */
  sections?: readonly Section[];
  /** Colour scheme: follow the system (auto, the default) or force light or dark. */
  theme?: Theme;
  /** The quiz's pass mark (0..1); without one the quiz is a plain self-check. */
  passMark?: number;
  /** Which questions the quiz asks (docs/quiz.md, "Sets"): "lesson" (the default; the learner may go on to the
   *  deeper ones), "deeper" or "all". The score and the pass mark cover that set. */
  quizSet?: QuizSet;
  /** Ask each learner this many questions of the set (the built-in bank or an author's); wins over the bank's `draw`. */
  quizDraw?: number;
  /** Practice may raise the score (docs/quiz.md, "Practice"); default false: the score stays the learner's tries at the questions. */
  quizPracticeCounts?: boolean;
  /** Where the quiz keeps progress (default: localStorage, guarded). SCORM passes cmi.suspend_data. */
  quizStorage?: QuizStorage;
  /** Tells apart several widgets' quiz progress on one origin. */
  instanceKey?: string;
  /** Level of the widget's title (1–4; sections and the quiz sit one and two below). Default 1;
   *  embedded in a course page, 2, under the page's own h1. */
  headingLevel?: number;
  /** Problems the host found in its own settings (e.g. element attributes), shown as a notice. */
  problems?: readonly string[];
  /** Why the widget does not speak the language asked for (its pack failed: WidgetLanguage.packProblem), shown
   *  in the same notice above the host's problems and kept when they change. The mount finds it itself when it loads the pack. */
  languageProblem?: string | null;
  /** An author's own question bank (quiz/source.ts); its `bank` null: the built-in one, with its `problem` shown. */
  quizBank?: AuthorBank | null;
  /** Show the widget's own title and introduction. Default: true (the page); the embeds turn it
   *  off unless asked, since their course page has its own (docs/embedding.md). */
  header?: boolean;
  /** The quiz's xAPI activity IRI (web/ship/xapi.ts); default urn:trainscope:quiz:<bank id>. */
  xapiActivity?: string;
  /** Emits the quiz's answers as xAPI statements (web/ship/xapi.ts's emitXapi). The embeds pass it;
   *  the standalone page has no host to forward them to, and leaves the code out of its bundle. */
  xapi?: typeof emitXapi;
  /** The widget's language as a tag ("de", "es-419"; docs/i18n.md). Default: the nearest `lang`
   *  above the root, else the document's <html lang>. A language without words is English, with a console warning. */
  language?: string;
}

export interface TrainscopeHandle {
  readonly engine: Engine;
  readonly element: HTMLElement;
  /** The language the widget speaks (English when the one asked for has no words or its pack failed). */
  readonly language: Language;
  /** The widget's translator, for hosts that write around it in its language. */
  readonly t: Translate;
  /** The scenario on screen, every field resolved by the engine. */
  scenario(): Scenario;
  /** Only the fields the learner or the link set (what the URL hash holds). */
  overrides(): PartialScenario;
  /** The estimate on screen (the last valid one). */
  estimate(): Estimate;
  setScenario(scenario: PartialScenario): void;
  /** Replaces the host's problems (as MountOptions.problems); none hides their notice. */
  setProblems(problems: readonly string[]): void;
  destroy(): void;
}
