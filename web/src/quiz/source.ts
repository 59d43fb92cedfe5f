// Where an author's own question bank comes from, without a rebuild (docs/quiz.md, "Your own
// bank"): a file on the same site named by the element's `bank` attribute or the iframe's
// `?bank=`, or a <script type="application/json"> inside the element. A bank that cannot be read
// leaves `bank` null and says why, naming it; the widget then asks the built-in questions with
// that notice. Whether the bank's items are any good is the engine's to say (bank.ts).
//
// Why a bank could not be read is kept as a reason, not only as a sentence: the bank is read
// before the widget's words (and the engine that writes its numbers) are at hand, so the quiz
// writes the sentence again in the widget's language (describeLoadProblem).

import { translator, type Translate } from '../i18n/i18n';

/** Why an author's bank could not be used. */
export type BankLoadReason =
  | { kind: 'too_large'; limitBytes: number }
  | { kind: 'empty' }
  | { kind: 'not_json'; detail: string }
  | { kind: 'bad_address' }
  | { kind: 'from_file' }
  | { kind: 'other_site' }
  | { kind: 'not_fetched' }
  | { kind: 'http_status'; status: number }
  | { kind: 'not_read' };

/** What the host gave, read: the bank, or why there is none. */
export interface AuthorBank {
  /** The parsed bank, or null when it could not be read (the built-in bank is used instead). */
  bank: unknown;
  /** How the author named it: the attribute's value, or "the bank in the page". */
  name: string;
  /** Why it could not be used, for the notice and the console; null when it was read. */
  problem: string | null;
  /** The same, for writing it in the widget's language; present only with a problem. */
  reason?: BankLoadReason;
}

const MAX_NAME_LENGTH = 80;
/** A bank far larger than any lesson's is a wrong file, not a bank. */
export const MAX_BANK_BYTES = 2_000_000;
export const INLINE_BANK_NAME = 'the bank in the page';

function shortName(name: string): string {
  return name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH - 1)}\u2026` : name;
}

const english: Translate = translator(null);

/** How the bank is named in a sentence: its address as given, or the words for a script child. */
export function bankDisplayName(name: string, t: Translate = english): string {
  return name === INLINE_BANK_NAME ? t('quizui.bank.inline_name', 'the bank in the page') : name;
}

/**
 * The notice for a bank that could not be used. `writeBytes` is the engine's writing of a size in
 * the widget's language; without the engine at hand (reading the bank comes first) the limit,
 * a round number of megabytes, is written as English does.
 */
export function describeLoadProblem(
  name: string,
  reason: BankLoadReason,
  t: Translate = english,
  writeBytes: (bytes: number) => string = (bytes) => `${bytes / 1_000_000} MB`,
): string {
  const shown = bankDisplayName(name, t);
  switch (reason.kind) {
    case 'too_large':
      return t(
        'quizui.bank_load.too_large',
        'The question bank “{name}” is larger than {limit}, so the built-in questions are shown instead.',
        { name: shown, limit: writeBytes(reason.limitBytes) },
      );
    case 'empty':
      return t('quizui.bank_load.empty', 'The question bank “{name}” is empty, so the built-in questions are shown instead.', {
        name: shown,
      });
    case 'not_json':
      return t(
        'quizui.bank_load.not_json',
        'The question bank “{name}” is not valid JSON ({detail}), so the built-in questions are shown instead.',
        { name: shown, detail: reason.detail },
      );
    case 'bad_address':
      return t(
        'quizui.bank_load.bad_address',
        'The question bank “{name}” is not a valid address, so the built-in questions are shown instead.',
        { name: shown },
      );
    case 'from_file':
      return t(
        'quizui.bank_load.from_file',
        'The question bank “{name}” cannot be fetched from a page opened as a file (serve the page, or build the bank in with scripts/build.sh --bank), so the built-in questions are shown instead.',
        { name: shown },
      );
    case 'other_site':
      return t(
        'quizui.bank_load.other_site',
        'The question bank “{name}” is on another site; the widget only reads a bank from its own site (same origin), so the built-in questions are shown instead.',
        { name: shown },
      );
    case 'not_fetched':
      return t(
        'quizui.bank_load.not_fetched',
        "The question bank “{name}” could not be fetched (the network, or a Content-Security-Policy without connect-src 'self'), so the built-in questions are shown instead.",
        { name: shown },
      );
    case 'http_status':
      // An HTTP status is a code, the same in every language, not a quantity to write.
      return t(
        'quizui.bank_load.http_status',
        'The question bank “{name}” could not be loaded (HTTP {status}), so the built-in questions are shown instead.',
        { name: shown, status: String(reason.status) },
      );
    case 'not_read':
      return t('quizui.bank_load.not_read', 'The question bank “{name}” could not be read, so the built-in questions are shown instead.', {
        name: shown,
      });
  }
}

function fallback(name: string, reason: BankLoadReason): AuthorBank {
  return { bank: null, name, problem: describeLoadProblem(name, reason), reason };
}

/** Parses the bank's text; the problem names the bank and says what is wrong with the JSON. */
export function readBankText(text: string, name: string): AuthorBank {
  const shown = shortName(name);
  if (text.length > MAX_BANK_BYTES) return fallback(shown, { kind: 'too_large', limitBytes: MAX_BANK_BYTES });
  if (text.trim() === '') return fallback(shown, { kind: 'empty' });
  try {
    return { bank: JSON.parse(text) as unknown, name: shown, problem: null };
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 120) : 'unreadable';
    return fallback(shown, { kind: 'not_json', detail });
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
    return fallback(name, { kind: 'bad_address' });
  }
  const origin = new URL(base).origin;
  if (address.origin !== origin || origin === 'null') {
    return fallback(name, { kind: origin === 'null' ? 'from_file' : 'other_site' });
  }
  let response: Response;
  try {
    response = await fetcher(address.href, { credentials: 'same-origin' });
  } catch {
    return fallback(name, { kind: 'not_fetched' });
  }
  if (!response.ok) return fallback(name, { kind: 'http_status', status: response.status });
  let text: string;
  try {
    text = await response.text();
  } catch {
    return fallback(name, { kind: 'not_read' });
  }
  return readBankText(text, name);
}

/**
 * The author's bank for a host that names one: `url` (attribute or query) wins over `inline`
 * (the text of a script child). Null when the host names none: the built-in bank, silently.
 */
export async function loadAuthorBank(
  source: { url: string | null; inline: string | null },
  base: string,
  fetcher?: typeof fetch,
): Promise<AuthorBank | null> {
  if (source.url !== null && source.url.trim() !== '') return fetchBank(source.url, base, fetcher);
  if (source.inline !== null) return readBankText(source.inline, INLINE_BANK_NAME);
  return null;
}
