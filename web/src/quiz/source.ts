// Where an author's own question bank comes from, without a rebuild (docs/quiz.md, "Your own
// bank"): a file on the same site named by the element's `bank` attribute or the iframe's
// `?bank=`, or a <script type="application/json"> inside the element. A bank that cannot be read
// leaves `bank` null and says why, naming it; the widget then asks the built-in questions with
// that notice. Whether the bank's items are any good is the engine's to say (bank.ts).

/** What the host gave, read: the bank, or why there is none. */
export interface AuthorBank {
  /** The parsed bank, or null when it could not be read (the built-in bank is used instead). */
  bank: unknown;
  /** How the author named it: the attribute's value, or "the bank in the page". */
  name: string;
  /** Why it could not be used, for the notice and the console; null when it was read. */
  problem: string | null;
}

const MAX_NAME_LENGTH = 80;
/** A bank far larger than any lesson's is a wrong file, not a bank. */
export const MAX_BANK_BYTES = 2_000_000;
export const INLINE_BANK_NAME = 'the bank in the page';

function shortName(name: string): string {
  return name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH - 1)}\u2026` : name;
}

function fallback(name: string, why: string): AuthorBank {
  return { bank: null, name, problem: `The question bank \u201C${name}\u201D ${why}, so the built-in questions are shown instead.` };
}

/** Parses the bank's text; the problem names the bank and says what is wrong with the JSON. */
export function readBankText(text: string, name: string): AuthorBank {
  const shown = shortName(name);
  if (text.length > MAX_BANK_BYTES) return fallback(shown, `is larger than ${MAX_BANK_BYTES / 1_000_000} MB`);
  if (text.trim() === '') return fallback(shown, 'is empty');
  try {
    return { bank: JSON.parse(text) as unknown, name: shown, problem: null };
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 120) : 'unreadable';
    return fallback(shown, `is not valid JSON (${detail})`);
  }
}

/**
 * Fetches the bank named by `url` (relative to `base`, the page's address). Only the page's own
 * origin is asked: the widget never contacts another server, and a strict CSP needs no more than
 * `connect-src 'self'`.
 */
export async function fetchBank(url: string, base: string, fetcher: typeof fetch = fetch): Promise<AuthorBank> {
  const name = shortName(url.trim());
  let address: URL;
  try {
    address = new URL(url.trim(), base);
  } catch {
    return fallback(name, 'is not a valid address');
  }
  const origin = new URL(base).origin;
  if (address.origin !== origin || origin === 'null') {
    return fallback(name, origin === 'null'
      ? 'cannot be fetched from a page opened as a file (serve the page, or build the bank in with scripts/build.sh --bank)'
      : 'is on another site; the widget only reads a bank from its own site (same origin)');
  }
  let response: Response;
  try {
    response = await fetcher(address.href, { credentials: 'same-origin' });
  } catch {
    return fallback(name, 'could not be fetched (the network, or a Content-Security-Policy without connect-src \'self\')');
  }
  if (!response.ok) return fallback(name, `could not be loaded (HTTP ${response.status})`);
  let text: string;
  try {
    text = await response.text();
  } catch {
    return fallback(name, 'could not be read');
  }
  return readBankText(text, name);
}

/**
 * The author's bank for a host that names one: `url` (attribute or query) wins over `inline`
 * (the text of a script child). Null when the host names none: the built-in bank, silently.
 */
export async function loadAuthorBank(source: { url: string | null; inline: string | null }, base: string, fetcher?: typeof fetch): Promise<AuthorBank | null> {
  if (source.url !== null && source.url.trim() !== '') return fetchBank(source.url, base, fetcher);
  if (source.inline !== null) return readBankText(source.inline, INLINE_BANK_NAME);
  return null;
}
