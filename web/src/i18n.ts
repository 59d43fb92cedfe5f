// The page's words in the widget's language (docs/i18n.md). English lives at each call:
// t('memory.heading', 'Memory to run and to train'); a translation catalogue maps the key to the
// same sentence in German or Spanish. Keys and English are plain string literals so that
// tools/i18n/extract.mjs can collect them; values go into {placeholders}.

/** The languages the widget speaks; English is the source. */
export type Language = 'en' | 'de' | 'es';
export const languages: readonly Language[] = ['en', 'de', 'es'];

/** A catalogue: key → sentence, with the English's {placeholders}. */
export type Catalogue = Readonly<Record<string, string>>;

export type MessageValues = Readonly<Record<string, string | number>>;

/** Writes one sentence; numbers in `values` must already be written by the engine. */
export type Translate = (key: string, english: string, values?: MessageValues) => string;

/** "de-AT" → 'de'; null for a language the widget has no words for. */
export function languageFromTag(tag: string | null | undefined): Language | null {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_.]/)[0];
  return (languages as readonly string[]).includes(primary) ? (primary as Language) : null;
}

export function fillPlaceholders(text: string, values?: MessageValues): string {
  if (!values) return text;
  return text.replace(/\{([a-zA-Z0-9_]+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}

/** A translator for one language; a key the catalogue lacks is written in English. */
export function translator(catalogue: Catalogue | null): Translate {
  if (!catalogue) return (_key, english, values) => fillPlaceholders(english, values);
  return (key, english, values) =>
    fillPlaceholders(Object.prototype.hasOwnProperty.call(catalogue, key) ? catalogue[key] : english, values);
}
