// Language packs (docs/i18n.md, "Language packs"): one language's page, engine and bank words in
// one JSON file, fetched only when a widget speaks that language. The served page, the element
// and the iframe page find it beside their script (i18n/<lang>.json, same origin: a strict CSP
// needs connect-src 'self'); the offline file and the LMS packages carry every pack inline in a
// <script type="application/json" id="trainscope-packs"> element, so ?lang= works from disk.
// English is in the code: asking for it reads and fetches nothing.

import { languageName, translator, type Language, type LanguagePack, type WidgetLanguage } from './i18n';

/** The inline packs' element in the single-file outputs (web/build.mjs writes it). */
export const INLINE_PACKS_ID = 'trainscope-packs';

/** The address of the script this code runs in (read while it runs: currentScript is null after), for files beside it. */
export const scriptUrl = (typeof document !== 'undefined' && (document.currentScript as HTMLScriptElement | null)?.src) || '';

/** A pack, or why it could not be loaded (the error's message, for the console and the widget's notice). */
type PackOrReason = LanguagePack | { reason: string };

const loading = new Map<Language, Promise<PackOrReason>>();
let inlinePacks: Record<string, unknown> | null | undefined;

function isCatalogue(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((text) => typeof text === 'string')
  );
}

/** A pack as read from JSON, or why it is not one. */
export function readPack(value: unknown): LanguagePack | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object';
  const { page = {}, engine = {}, bank = {} } = value as Record<string, unknown>;
  if (!isCatalogue(page)) return 'its "page" part is not an object of texts';
  if (!isCatalogue(engine)) return 'its "engine" part is not an object of texts';
  return { page, engine, bank };
}

function inline(): Record<string, unknown> | null {
  if (inlinePacks !== undefined) return inlinePacks;
  const element = typeof document !== 'undefined' ? document.getElementById(INLINE_PACKS_ID) : null;
  inlinePacks = null;
  if (element) {
    try {
      const parsed: unknown = JSON.parse(element.textContent ?? '');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) inlinePacks = parsed as Record<string, unknown>;
    } catch {
      // Treated as absent: the language falls back to English with a warning below.
    }
  }
  return inlinePacks;
}

async function fetchPack(language: Language): Promise<LanguagePack> {
  const packs = inline();
  if (packs) {
    const read = readPack(packs[language]);
    if (typeof read === 'string') throw new Error(`the inline pack: ${read}`);
    return read;
  }
  const address = new URL(`i18n/${language}.json`, scriptUrl || document.baseURI);
  const response = await fetch(address.href, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${address.href} answered ${response.status}`);
  const read = readPack(await response.json());
  if (typeof read === 'string') throw new Error(`${address.href}: ${read}`);
  return read;
}

/**
 * The pack for `language`, loaded once per page, or why it could not be loaded (then a console
 * warning names the language too).
 */
function loadPack(language: Language): Promise<PackOrReason> {
  let pending = loading.get(language);
  if (!pending) {
    pending = fetchPack(language).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      console.warn(
        `trainscope: the ${languageName(language)} (${language}) language pack could not be loaded (${reason}); showing English.`,
      );
      return { reason };
    });
    loading.set(language, pending);
  }
  return pending;
}

/**
 * A widget's language with its translator: English when the pack is missing, with `packProblem`
 * saying so in English for the widget's notice (a console line alone goes unseen: a host's policy
 * without connect-src would leave a German course silently English).
 */
export async function widgetLanguage(language: Language): Promise<WidgetLanguage> {
  if (language === 'en') return { language: 'en', t: translator(null), pack: null, packProblem: null };
  const pack = await loadPack(language);
  if (!('reason' in pack)) return { language, t: translator(pack.page), pack, packProblem: null };
  // In English, as the rest of the widget now is: the words that failed to load were the translation.
  const packProblem = `lang: the ${languageName(language)} words could not be loaded (${pack.reason}), so the widget shows English. A page with a Content-Security-Policy must allow connect-src 'self' for them (docs/embedding.md, "Language").`;
  return { language: 'en', t: translator(null), pack: null, packProblem };
}

/** The page's ?lang= (the served page, the offline file, the iframe and the LMS packages), or undefined. */
export function queryLanguage(): string | undefined {
  if (typeof location === 'undefined') return undefined;
  return new URLSearchParams(location.search).get('lang') ?? undefined;
}
