// Reads the embed settings (element attributes, or the iframe page's query parameters) into
// mount options. Pure: every problem becomes a sentence for the widget to show, never an exception.
import type { Section, Theme } from '../src/app';
import type { PartialScenario } from '../src/types';

const SECTIONS: readonly Section[] = ['memory', 'time', 'quiz'];
const THEMES: readonly Theme[] = ['light', 'dark', 'auto'];

export interface ElementSettings {
  scenario: PartialScenario;
  sections: Section[];
  theme: Theme;
  passMark: number | null;
  problems: string[];
}

/** Reads the attributes (or query parameters) as given, null when absent; every problem becomes a sentence, never an exception. */
export function readSettings(attributes: {
  preset: string | null;
  scenario: string | null;
  sections: string | null;
  theme: string | null;
  passMark: string | null;
}): ElementSettings {
  const problems: string[] = [];
  let scenario: PartialScenario = {};
  if (attributes.scenario !== null && attributes.scenario.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(attributes.scenario);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) scenario = parsed as PartialScenario;
      else problems.push('The scenario attribute must be a JSON object, e.g. {"model":{"preset":"llama3-70b"}}.');
    } catch {
      problems.push('The scenario attribute is not valid JSON.');
    }
  }
  if (attributes.preset !== null && attributes.preset.trim() !== '') {
    scenario = { ...scenario, model: { preset: attributes.preset.trim() } };
  }

  let sections: Section[] = [...SECTIONS];
  if (attributes.sections !== null && attributes.sections.trim() !== '') {
    const words = attributes.sections.toLowerCase().split(/[\s,]+/).filter(Boolean);
    const known = words.filter((word): word is Section => (SECTIONS as readonly string[]).includes(word));
    const unknown = words.filter((word) => !(SECTIONS as readonly string[]).includes(word));
    if (unknown.length > 0) problems.push(`The sections attribute has unknown names (${unknown.join(', ')}); use memory, time and quiz.`);
    if (known.length > 0) sections = known;
  }

  let theme: Theme = 'auto';
  if (attributes.theme !== null && attributes.theme.trim() !== '') {
    const value = attributes.theme.trim().toLowerCase();
    if ((THEMES as readonly string[]).includes(value)) theme = value as Theme;
    else problems.push(`The theme attribute must be light, dark or auto, not “${value.slice(0, 20)}”.`);
  }

  let passMark: number | null = null;
  if (attributes.passMark !== null && attributes.passMark.trim() !== '') {
    const text = attributes.passMark.trim();
    const value = text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
    if (Number.isFinite(value) && value >= 0 && value <= 1) passMark = value;
    else problems.push('The pass-mark attribute must be a fraction from 0 to 1 (or a percentage such as 70%).');
  }
  return { scenario, sections, theme, passMark, problems };
}

