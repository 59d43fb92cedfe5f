// Plain-data helpers for scenarios: merge a partial scenario over the defaults, find what a
// scenario changes from the defaults (what the URL keeps), and read/write a field by its
// dotted path ("parallel.gpus", the same names the engine's errors use).

import type { PartialScenario, Scenario } from './types';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * `overrides` laid over `defaults`, section by section. The model section is replaced whole:
 * a preset, a bare parameter count and an explicit architecture are alternatives, and keeping
 * the default preset beside a learner's parameter count would mix two models. The result shares
 * its inner objects with its inputs (read it, do not change it): the page merges on every step,
 * where a deep copy cost more than the step's other bookkeeping.
 */
export function mergeScenario(defaults: Scenario, overrides: PartialScenario): Scenario {
  const merged: Json = { ...(defaults as unknown as Json) };
  for (const [section, value] of Object.entries(overrides)) {
    if (section !== 'model' && isObject(value) && isObject(merged[section])) merged[section] = { ...(merged[section] as Json), ...value };
    else merged[section] = value;
  }
  return merged as unknown as Scenario;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of `scenario` that differ from `defaults`; {} when nothing does. */
export function scenarioChanges(defaults: Scenario, scenario: Scenario): PartialScenario {
  const changes: Json = {};
  const defaultsJson = defaults as unknown as Json;
  for (const [section, value] of Object.entries(scenario as unknown as Json)) {
    const base = defaultsJson[section];
    if (section === 'model') {
      if (!sameValue(value, base)) changes.model = clone(value);
      continue;
    }
    if (isObject(value) && isObject(base)) {
      const sectionChanges: Json = {};
      for (const [key, fieldValue] of Object.entries(value)) {
        if (!sameValue(fieldValue, base[key])) sectionChanges[key] = clone(fieldValue);
      }
      if (Object.keys(sectionChanges).length > 0) changes[section] = sectionChanges;
    } else if (!sameValue(value, base)) changes[section] = clone(value);
  }
  return changes as PartialScenario;
}

export function getField(scenario: Scenario | PartialScenario, path: string): unknown {
  let node: unknown = scenario;
  for (const key of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** A copy of `scenario` with `path` set to `value` (intermediate objects created as needed). */
export function setField<S extends Scenario | PartialScenario>(scenario: S, path: string, value: unknown): S {
  const next = clone(scenario) as unknown as Json;
  const keys = path.split('.');
  let node = next;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Json;
  }
  const last = keys[keys.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return next as unknown as S;
}

/** A copy of `scenario` without `path`; a section left empty is removed too. */
export function deleteField<S extends Scenario | PartialScenario>(scenario: S, path: string): S {
  const next = clone(scenario) as unknown as Json;
  const keys = path.split('.');
  const parents: Json[] = [next];
  let node: unknown = next;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node) || !isObject(node[key])) return next as unknown as S;
    node = node[key];
    parents.push(node as Json);
  }
  delete (node as Json)[keys[keys.length - 1]];
  for (let depth = keys.length - 1; depth > 0; depth -= 1) {
    if (Object.keys(parents[depth]).length === 0) delete parents[depth - 1][keys[depth - 1]];
  }
  return next as unknown as S;
}
