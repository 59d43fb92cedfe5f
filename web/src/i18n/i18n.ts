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
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

/** A translator for one language; a key the catalogue lacks is written in English. */
export function translator(catalogue: Catalogue | null): Translate {
  if (!catalogue) return (_key, english, values) => fillPlaceholders(english, values);
  return (key, english, values) =>
    fillPlaceholders(Object.prototype.hasOwnProperty.call(catalogue, key) ? catalogue[key] : english, values);
}

/** Which way each language's text runs: set as `dir` on the widget's root, so a right-to-left
 *  language later needs only its row here. */
export const DIRECTIONS: Readonly<Record<Language, 'ltr' | 'rtl'>> = { en: 'ltr', de: 'ltr', es: 'ltr' };

/** The names the console uses for each language. */
const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', de: 'German', es: 'Spanish' };

export function languageName(language: Language): string {
  return LANGUAGE_NAMES[language];
}

/**
 * A language chosen from a tag (an attribute, ?lang=, <html lang>): the widget's language, and
 * the tag it could not use when it fell back to English (for the console), else null.
 */
export function chooseLanguage(tag: string | null | undefined): { language: Language; refused: string | null } {
  const given = (tag ?? '').trim();
  if (given === '') return { language: 'en', refused: null };
  const language = languageFromTag(given);
  return language ? { language, refused: null } : { language: 'en', refused: given.slice(0, 35) };
}

/** One language's words for every part (dist/i18n/<lang>.json, written by web/build.mjs). */
export interface LanguagePack {
  page: Catalogue;
  engine: Catalogue;
  /** The built-in bank's translations: {"takeaways": {id: text}, "items": {id: translation}} (docs/i18n.md). */
  bank: unknown;
}

/** What a widget speaks: its language, the page's translator in it, and the pack it came from (null: English). */
export interface WidgetLanguage {
  language: Language;
  t: Translate;
  pack: LanguagePack | null;
  /** Why the language asked for is not the one spoken (its pack could not be loaded), in English; else absent. */
  packProblem?: string | null;
}

export const ENGLISH: WidgetLanguage = { language: 'en', t: translator(null), pack: null };

/**
 * A translated sentence with elements in it: t's text with some {placeholders} left unfilled,
 * each replaced by its element (a figure, a button), so a translator can move the figure too.
 */
export function withElements(text: string, elements: Readonly<Record<string, Node | null>>): Array<string | Node> {
  const pieces: Array<string | Node> = [];
  let last = 0;
  for (const match of text.matchAll(/\{([a-zA-Z0-9_]+)\}/g)) {
    const element = Object.prototype.hasOwnProperty.call(elements, match[1]) ? elements[match[1]] : undefined;
    if (element === undefined) continue;
    if (match.index > last) pieces.push(text.slice(last, match.index));
    if (element) pieces.push(element);
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}
