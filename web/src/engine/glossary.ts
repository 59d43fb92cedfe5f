// The engine's glossary (src/engine/model/glossary.hpp): every word the page explains at first
// sight, in the widget's language, read here from the engine's JSON and nowhere else.
//
// Why a registry by language and not a member of the section context: the glossary is a pure
// function of the language (and the catalogue the widget gave the engine for it), every widget
// of that language would be handed the same list, and the sections that mark terms are built by
// code this folder does not own. Each engine view offers its glossary here when it is made
// (engine.ts, wrap); the first one asked for reads the engine once per language.

import type { Language } from '../i18n/i18n';
import type { TrainscopeEngineModule } from './engine-module';

export interface GlossaryTerm {
  /** "tensor_parallel": stable across languages; the page marks terms by it. */
  readonly id: string;
  /** "TP", "1F1B", "FULL_SHARD"; "" when the term has none. */
  readonly abbreviation: string;
  /** The full name in the widget's language: "tensor parallelism". */
  readonly name: string;
  /** Other ways the page writes the term ("tensor parallel", "tensor-parallel"). */
  readonly forms: readonly string[];
  /** One or two sentences, the engine's, in the widget's language. */
  readonly definition: string;
  /** A citation where the definition carries a number or a claim; "" otherwise. */
  readonly source: string;
}

export interface Glossary {
  readonly terms: readonly GlossaryTerm[];
  /** The term with this id, or undefined (an engine built before the term was added). */
  term(id: string): GlossaryTerm | undefined;
}

const EMPTY: Glossary = { terms: [], term: () => undefined };

function isTerm(value: unknown): value is GlossaryTerm {
  if (!value || typeof value !== 'object') return false;
  const term = value as Record<string, unknown>;
  return (
    typeof term.id === 'string' &&
    typeof term.abbreviation === 'string' &&
    typeof term.name === 'string' &&
    typeof term.definition === 'string' &&
    typeof term.source === 'string' &&
    Array.isArray(term.forms) &&
    term.forms.every((form) => typeof form === 'string')
  );
}

/** The glossary from the engine's JSON; terms it cannot read are left out, an unreadable answer gives none. */
export function readGlossary(json: string): Glossary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return EMPTY;
  }
  const list = (parsed as { terms?: unknown } | null)?.terms;
  const terms = Array.isArray(list) ? list.filter(isTerm) : [];
  const byId = new Map(terms.map((term) => [term.id, term]));
  return { terms, term: (id) => byId.get(id) };
}

/** What each language's engine views offered, and what the first one read. */
const offered = new Map<Language, () => Glossary>();
const read = new Map<Language, Glossary>();

/** An engine view in `language` offers its glossary (engine.ts). The first offer for a language stays. */
export function offerGlossary(language: Language, engineModule: Pick<TrainscopeEngineModule, 'glossary'>): void {
  if (offered.has(language)) return;
  offered.set(language, () => (typeof engineModule.glossary === 'function' ? readGlossary(engineModule.glossary()) : EMPTY));
}

/** The glossary in `language`: empty until an engine view in that language was made (the page then shows plain words). */
export function glossaryIn(language: Language): Glossary {
  let glossary = read.get(language);
  if (glossary) return glossary;
  const offer = offered.get(language);
  if (!offer) return EMPTY;
  glossary = offer();
  read.set(language, glossary);
  return glossary;
}
