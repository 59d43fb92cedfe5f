// The scenario in the URL hash: "#s=" followed by the URL-encoded JSON of the fields that
// differ from the engine's defaults (docs/page.md). An empty hash means the defaults. The step
// section's playhead rides along as "&step=<event index>" (or alone: "#step=80"), so a link
// opens one training step at a chosen moment.

import { translator, type Translate } from '../i18n/i18n';
import type { FieldError, PartialScenario } from '../engine/types';

/** The engine's reading of scenario JSON text (engine.ts's Engine has it). */
type ScenarioReader = { scenarioErrors(scenarioJson: string): FieldError[] };

export const HASH_KEY = 's';
/** The playhead of the step section: the index of the event under it. */
export const STEP_KEY = 'step';
const MAX_HASH_LENGTH = 8000;

export type HashResult =
  | { kind: 'empty'; playhead?: number }
  | { kind: 'scenario'; scenario: PartialScenario; playhead?: number }
  /** A plain in-page anchor ("#quiz"): not ours to read or to complain about. */
  | { kind: 'anchor' }
  | { kind: 'invalid'; message: string };

/** The hash for a scenario's changes and the step's playhead: "" when there are neither. */
export function encodeHash(changes: PartialScenario, playhead: number | null = null): string {
  const parts: string[] = [];
  if (Object.keys(changes).length > 0) parts.push(`${HASH_KEY}=${encodeURIComponent(JSON.stringify(changes))}`);
  if (playhead !== null) parts.push(`${STEP_KEY}=${playhead}`);
  return parts.length > 0 ? `#${parts.join('&')}` : '';
}

/** The playhead part ("step=80") taken off a hash's text; the JSON is URL-encoded, so a raw "&" only ever separates parts. */
function splitPlayhead(text: string, t: Translate): { rest: string; playhead?: number; invalid?: string } {
  const parts = text.split('&');
  const stepParts = parts.filter((part) => part.startsWith(`${STEP_KEY}=`));
  if (stepParts.length === 0) return { rest: text };
  const rest = parts.filter((part) => !part.startsWith(`${STEP_KEY}=`)).join('&');
  const value = stepParts[stepParts.length - 1].slice(STEP_KEY.length + 1);
  if (stepParts.length > 1 || !/^\d{1,6}$/.test(value)) {
    return {
      rest,
      invalid: t('page.hash.step', 'the link’s {key} is “{value}”, where one event number (e.g. {key}=80) was expected', {
        key: STEP_KEY,
        value: truncate(stepParts.join('&')),
      }),
    };
  }
  return { rest, playhead: Number(value) };
}

/**
 * Reads a location hash ("#s=…", with or without the "#"). Never throws. Given the engine, the
 * text is first read by the engine's JSON reader, so a member given twice (which JSON.parse
 * would silently resolve to its last copy) is refused with its path, as the CLI refuses it.
 */
export function decodeHash(hash: string, engine?: ScenarioReader, t: Translate = translator(null)): HashResult {
  const whole = hash.startsWith('#') ? hash.slice(1) : hash;
  if (/^[A-Za-z][\w:.-]*$/.test(whole)) return { kind: 'anchor' };
  const { rest: text, playhead, invalid } = splitPlayhead(whole, t);
  if (invalid) return { kind: 'invalid', message: invalid };
  const result = decodeScenario(text, t, engine);
  return playhead !== undefined && (result.kind === 'empty' || result.kind === 'scenario') ? { ...result, playhead } : result;
}

function decodeScenario(text: string, t: Translate, engine?: ScenarioReader): HashResult {
  if (text.trim() === '') return { kind: 'empty' };
  if (text.length > MAX_HASH_LENGTH)
    return {
      kind: 'invalid',
      message: t('page.hash.too_long', 'the link’s scenario is too long ({length} characters)', { length: String(text.length) }),
    };
  const params = new URLSearchParams(text);
  const encoded = text.startsWith(`${HASH_KEY}=`) ? text.slice(HASH_KEY.length + 1) : null;
  if (encoded === null) {
    const keys = [...params.keys()].join(', ') || text;
    return {
      kind: 'invalid',
      message: t('page.hash.not_scenario', 'the link has “{keys}” where a scenario (#{key}=…) was expected', {
        keys: truncate(keys),
        key: HASH_KEY,
      }),
    };
  }
  let json: string;
  try {
    json = decodeURIComponent(encoded);
  } catch {
    return { kind: 'invalid', message: t('page.hash.not_encoded', 'the link’s scenario is not correctly URL-encoded') };
  }
  if (json.trim() === '' || json.trim() === '{}') return { kind: 'empty' };
  if (engine) {
    // The engine's own words for unreadable JSON (English; in another language this check
    // passes, and the scenario's problems are named when it is estimated).
    const errors = engine.scenarioErrors(json);
    const unreadable = errors.find((error) => error.message.startsWith('is not valid JSON'));
    if (unreadable)
      return {
        kind: 'invalid',
        message: t('page.hash.unreadable', 'the link’s scenario {problem}', {
          problem: truncate(`${unreadable.field}: ${unreadable.message}`, 160),
        }),
      };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return {
      kind: 'invalid',
      message: t('page.hash.not_json', 'the link’s scenario is not valid JSON: “{json}”', { json: truncate(json) }),
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', message: t('page.hash.not_object', 'the link’s scenario is not a JSON object') };
  }
  for (const [section, body] of Object.entries(value)) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return {
        kind: 'invalid',
        message: t('page.hash.not_section', 'the link’s scenario has “{name}” set to {value}, not a section', {
          name: truncate(section),
          value: truncate(JSON.stringify(body)),
        }),
      };
    }
  }
  return { kind: 'scenario', scenario: value as PartialScenario };
}

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
