// Where a sentence mentions a glossary term (figures/term.ts marks it there): DOM-free, so that
// node tests it (tests/web/term-match.test.mjs). A term is found by its abbreviation, written as
// it is ("TP", "1F1B", never inside "DDP"), or by its name or one of its forms, in any case, from
// the start of a word to the end of the word the form ends in ("tensor parallel" finds "Tensor
// parallelism"); "Datenparallel" finds "Datenparallelität". Each term is found once, at its first
// mention, and two terms never overlap: the earlier in the list asked for wins.

export interface TermPatterns {
  readonly id: string;
  readonly abbreviation: string;
  readonly name: string;
  readonly forms: readonly string[];
}

export interface TermSpan {
  readonly id: string;
  /** UTF-16 offsets into the text, end exclusive. */
  readonly start: number;
  readonly end: number;
}

const WORD = '[\\p{L}\\p{N}_]';

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
}

/** The expressions that find a term: its abbreviation as written, then its name and forms in any case, longest first. */
function expressions(term: TermPatterns): RegExp[] {
  const found: RegExp[] = [];
  if (term.abbreviation) found.push(new RegExp(`(?<!${WORD})${escaped(term.abbreviation)}(?!${WORD})`, 'gu'));
  const words = [term.name, ...term.forms].filter((form) => form.trim() !== '').sort((a, b) => b.length - a.length);
  for (const form of words) found.push(new RegExp(`(?<!${WORD})${escaped(form)}\\p{L}*`, 'giu'));
  return found;
}

function overlaps(span: { start: number; end: number }, taken: readonly TermSpan[]): boolean {
  return taken.some((other) => span.start < other.end && other.start < span.end);
}

/** The first mention of one term that overlaps none already taken, or null. */
function firstMention(text: string, term: TermPatterns, taken: readonly TermSpan[]): TermSpan | null {
  let best: TermSpan | null = null;
  for (const expression of expressions(term)) {
    for (const match of text.matchAll(expression)) {
      const span = { id: term.id, start: match.index, end: match.index + match[0].length };
      if (best && span.start >= best.start) break;
      if (!overlaps(span, taken)) {
        best = span;
        break;
      }
    }
  }
  return best;
}

/** Each term's first mention in `text`, in the text's order; terms not mentioned are left out. */
export function findTerms(text: string, terms: readonly TermPatterns[]): TermSpan[] {
  const taken: TermSpan[] = [];
  for (const term of terms) {
    const span = firstMention(text, term, taken);
    if (span) taken.push(span);
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** The text cut at the mentions: plain strings between {id, text} pieces, in order. */
export function splitAtTerms(text: string, spans: readonly TermSpan[]): Array<string | { id: string; text: string }> {
  const pieces: Array<string | { id: string; text: string }> = [];
  let at = 0;
  for (const span of spans) {
    if (span.start > at) pieces.push(text.slice(at, span.start));
    pieces.push({ id: span.id, text: text.slice(span.start, span.end) });
    at = span.end;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}
