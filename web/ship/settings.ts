// Reads the embed settings (element attributes, or the iframe page's query parameters) into
// mount options. Pure: every problem becomes a sentence naming its attribute, for the widget to
// show and the console to log, never an exception.
import { DEFAULT_SECTIONS, isSection, SECTION_NAMES, type Section, type Theme } from '../src/widget/options';
import { translator, type Translate } from '../src/i18n/i18n';
import type { FieldError, PartialScenario } from '../src/engine/types';
import { QUIZ_SETS, type QuizSet } from '../src/quiz/state';
import type { MountOptions } from '../src/widget/mount';

const THEMES: readonly Theme[] = ['light', 'dark', 'auto'];
/** `header` alone (an empty value) switches it on, like a boolean HTML attribute. */
const HEADER_ON = ['', 'on', 'true', 'yes', 'header'];
const HEADER_OFF = ['off', 'false', 'no'];

export interface ElementSettings {
  scenario: PartialScenario;
  sections: Section[];
  theme: Theme;
  passMark: number | null;
  /** The widget's own title and introduction: off unless asked, since a course page has its own. */
  header: boolean;
  problems: string[];
  /** The author's question bank: a same-origin address (`bank` attribute, `?bank=`), or null. */
  bank: string | null;
  /** Which questions the quiz asks (`quiz` attribute, `?quiz=`; docs/quiz.md, "Sets"): lesson (the default), deeper or all. */
  quizSet: QuizSet;
  /** How many of them each learner is asked (`draw`, `?draw=`), or null: the bank's own draw, else all. */
  draw: number | null;
  /** Practice may raise the score (`practice-counts="on"`, `?practice-counts=on`; docs/quiz.md, "Practice"); default off. */
  practiceCounts: boolean;
  /** What `preset` and `scenario` said on their own, so that checkScenario can blame the right one. */
  sources: { preset: string | null; scenario: PartialScenario };
}

export interface SettingsText {
  preset: string | null;
  scenario: string | null;
  sections: string | null;
  theme: string | null;
  passMark: string | null;
  header?: string | null;
  bank?: string | null;
  quiz?: string | null;
  draw?: string | null;
  practiceCounts?: string | null;
}

/** Reads the attributes (or query parameters) as given, null when absent; every problem becomes a sentence, never an exception. */
export function readSettings(attributes: SettingsText, t: Translate = translator(null)): ElementSettings {
  const problems: string[] = [];
  let fromJson: PartialScenario = {};
  if (attributes.scenario !== null && attributes.scenario.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(attributes.scenario);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fromJson = parsed as PartialScenario;
      else
        problems.push(
          t('page.settings.scenario_object', 'The scenario attribute must be a JSON object, e.g. {example}.', {
            example: '{"model":{"preset":"llama3-70b"}}',
          }),
        );
    } catch {
      problems.push(t('page.settings.scenario_json', 'The scenario attribute is not valid JSON.'));
    }
  }
  const preset = attributes.preset !== null && attributes.preset.trim() !== '' ? attributes.preset.trim() : null;
  const scenario = preset === null ? fromJson : { ...fromJson, model: { preset } };

  let sections: Section[] = [...DEFAULT_SECTIONS];
  if (attributes.sections !== null && attributes.sections.trim() !== '') {
    const words = attributes.sections
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean);
    const known = words.filter(isSection);
    const unknown = words.filter((word) => !isSection(word));
    if (unknown.length > 0)
      problems.push(
        t('page.settings.sections_parts', 'The sections attribute has unknown names ({names}); use {known}.', {
          names: unknown.map((word) => word.slice(0, 20)).join(', '),
          known: SECTION_NAMES.join(', '),
        }),
      );
    if (known.length > 0) sections = [...new Set(known)];
  }

  let theme: Theme = 'auto';
  if (attributes.theme !== null && attributes.theme.trim() !== '') {
    const value = attributes.theme.trim().toLowerCase();
    if ((THEMES as readonly string[]).includes(value)) theme = value as Theme;
    else
      problems.push(
        t('page.settings.theme', 'The theme attribute must be light, dark or auto, not “{value}”.', { value: value.slice(0, 20) }),
      );
  }

  let passMark: number | null = null;
  if (attributes.passMark !== null && attributes.passMark.trim() !== '') {
    const text = attributes.passMark.trim();
    const value = text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
    if (Number.isFinite(value) && value >= 0 && value <= 1) passMark = value;
    else
      problems.push(t('page.settings.pass_mark', 'The pass-mark attribute must be a fraction from 0 to 1 (or a percentage such as 70%).'));
  }

  let header = false;
  if (attributes.header !== undefined && attributes.header !== null) {
    const value = attributes.header.trim().toLowerCase();
    if (HEADER_ON.includes(value)) header = true;
    else if (!HEADER_OFF.includes(value))
      problems.push(t('page.settings.header', 'The header attribute must be on or off, not “{value}”.', { value: value.slice(0, 20) }));
  }
  // The address is only trimmed here: whether it can be fetched is quiz/source.ts's to say, by name.
  const bank = attributes.bank !== undefined && attributes.bank !== null && attributes.bank.trim() !== '' ? attributes.bank.trim() : null;
  const quiz = readQuizChoice(attributes, t, problems);
  return { scenario, sections, theme, passMark, header, bank, ...quiz, problems, sources: { preset, scenario: fromJson } };
}

/** `practice-counts`: on (or present without a value) lets practice raise the score; off, the default, never. */
function readPracticeCounts(text: string | null | undefined, t: Translate, problems: string[]): boolean {
  if (text === undefined || text === null) return false;
  const value = text.trim().toLowerCase();
  if (HEADER_ON.slice(0, 4).includes(value) || value === 'practice-counts') return true;
  if (!HEADER_OFF.includes(value))
    problems.push(
      t(
        'page.settings.practice_counts',
        'The practice-counts attribute must be on or off, not “{value}”; practice does not change the score.',
        {
          value: value.slice(0, 20),
        },
      ),
    );
  return false;
}

/** The `quiz`, `draw` and `practice-counts` attributes: a refused value is a problem naming it, and its default is used. */
function readQuizChoice(
  attributes: SettingsText,
  t: Translate,
  problems: string[],
): { quizSet: QuizSet; draw: number | null; practiceCounts: boolean } {
  let quizSet: QuizSet = 'lesson';
  const quiz = attributes.quiz?.trim().toLowerCase() ?? '';
  if (quiz !== '') {
    if ((QUIZ_SETS as readonly string[]).includes(quiz)) quizSet = quiz as QuizSet;
    else
      problems.push(
        t('page.settings.quiz', 'The quiz attribute must be lesson, deeper or all, not “{value}”; the lesson questions are asked.', {
          value: quiz.slice(0, 20),
        }),
      );
  }
  let draw: number | null = null;
  const drawText = attributes.draw?.trim() ?? '';
  if (drawText !== '') {
    const value = /^\d{1,5}$/.test(drawText) ? Number(drawText) : NaN;
    if (Number.isInteger(value) && value >= 1) draw = value;
    else
      problems.push(
        t(
          'page.settings.draw',
          'The draw attribute must be a whole number of questions, at least 1, not “{value}”; every question is asked.',
          {
            value: drawText.slice(0, 20),
          },
        ),
      );
  }
  return { quizSet, draw, practiceCounts: readPracticeCounts(attributes.practiceCounts, t, problems) };
}

/**
 * Asks the engine about the scenario the settings describe. An unknown preset, or a scenario the
 * engine refuses, becomes a problem naming that attribute, and the scenario falls back to what
 * the other one said alone (or to the defaults), so the widget never starts from a refused one.
 */
export function checkScenario(
  settings: ElementSettings,
  estimate: (scenario: PartialScenario) => { errors: FieldError[] },
  t: Translate = translator(null),
): ElementSettings {
  if (estimate(settings.scenario).errors.length === 0) return settings;
  const problems = [...settings.problems];
  const { preset, scenario: fromJson } = settings.sources;
  const presetErrors = preset === null ? [] : estimate({ model: { preset } }).errors;
  if (presetErrors.length > 0)
    problems.push(t('page.settings.preset', 'The preset attribute is not usable: {problems}.', { problems: describe(t, presetErrors) }));
  let scenario = presetErrors.length > 0 ? fromJson : settings.scenario;
  const scenarioErrors = estimate(scenario).errors;
  if (scenarioErrors.length > 0) {
    problems.push(
      t('page.settings.scenario', 'The scenario attribute has problems ({problems}).', { problems: describe(t, scenarioErrors) }),
    );
    scenario = preset !== null && presetErrors.length === 0 ? { model: { preset } } : {};
  }
  return { ...settings, scenario, problems };
}

function describe(t: Translate, errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((error) => (error.field === 'model.preset' ? error.message : `${error.field}: ${error.message}`));
  return errors.length > 3 ? t('page.errors_more', '{shown}; and more', { shown: shown.join('; ') }) : shown.join('; ');
}

/** The mount options that checked settings give, the same for the element (element.ts) and the iframe page (iframe-entry.ts). */
export function settingsOptions(settings: ElementSettings): MountOptions {
  return {
    scenario: settings.scenario,
    sections: settings.sections,
    theme: settings.theme,
    passMark: settings.passMark ?? undefined,
    quizSet: settings.quizSet,
    quizDraw: settings.draw ?? undefined,
    quizPracticeCounts: settings.practiceCounts,
    problems: settings.problems,
    header: settings.header,
  };
}
