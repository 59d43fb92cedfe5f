// Parsing what a learner types into a number field: "70B", "15.6e12", "16,384", "1.1 TB",
// "3.6 × 10^25", "40%". Locale-free on purpose: "," is always a thousands separator and "."
// always the decimal point, so a value never changes meaning with the browser's language.

export type ParseResult = { ok: true; value: number } | { ok: false; message: string };

export type Quantity = 'count' | 'bytes' | 'fraction' | 'flops_rate';

const COUNT_SUFFIXES: Record<string, number> = {
  '': 1, k: 1e3, thousand: 1e3, m: 1e6, mn: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9,
  t: 1e12, tn: 1e12, trillion: 1e12, q: 1e15, quadrillion: 1e15,
};

const BYTE_SUFFIXES: Record<string, number> = {
  '': 1, b: 1, byte: 1, bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, pb: 1e15,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40, pib: 2 ** 50,
};

const RATE_SUFFIXES: Record<string, number> = {
  '': 1, 'flop/s': 1, flops: 1, 'gflop/s': 1e9, gflops: 1e9, 'tflop/s': 1e12, tflops: 1e12,
  'pflop/s': 1e15, pflops: 1e15,
};

const NUMBER_PATTERN = /^([+-]?(?:\d[\d,_' ]*\d|\d)?(?:\.\d+)?)(?:(?:e|E)([+-]?\d+)|\s*[x×*]\s*10\s*(?:\^|\*\*)\s*([+-]?\d+))?\s*(.*)$/;

/**
 * Parses a typed number with an optional unit suffix. `quantity` chooses which suffixes are
 * understood; an unknown suffix is an error (a typo must not silently become a number).
 */
export function parseQuantity(input: string, quantity: Quantity = 'count'): ParseResult {
  const text = input.trim().replace(/[\u2212\u2013]/g, '-').replace(/\u00a0/g, ' ');
  if (text === '') return { ok: false, message: 'enter a number' };
  const match = NUMBER_PATTERN.exec(text);
  if (!match || match[1] === '' || match[1] === '+' || match[1] === '-') {
    return { ok: false, message: `“${input.trim()}” is not a number` };
  }
  const [, mantissaText, exponentE, exponentTimesTen, suffixText] = match;
  const digits = mantissaText.replace(/[,_' ]/g, '');
  if (/,\d{1,2}(?!\d)/.test(mantissaText.replace(/\..*$/, '')) && !/\./.test(mantissaText)) {
    // "1,5" is a decimal comma somewhere else in the world; refuse rather than read 15.
    return { ok: false, message: `use “.” for decimals: “${input.trim()}” is ambiguous` };
  }
  // Powers of ten are applied to the decimal text, not by multiplying: "3.6e25" and
  // "3.6 × 10^25" and "36e24" all give exactly the double nearest 3.6 × 10²⁵.
  let exponent = Number(exponentE ?? exponentTimesTen ?? 0);
  let factor = 1;
  const suffix = suffixText.trim().toLowerCase();
  if (quantity === 'fraction') {
    if (suffix === '%') exponent -= 2;
    else if (suffix !== '') return { ok: false, message: `unknown unit “${suffixText.trim()}” (use a fraction like 0.4 or a percentage like 40%)` };
  } else {
    const table = quantity === 'bytes' ? BYTE_SUFFIXES : quantity === 'flops_rate' ? RATE_SUFFIXES : COUNT_SUFFIXES;
    const scale = table[suffix];
    if (scale === undefined) {
      const known = quantity === 'bytes' ? 'GB, TB, GiB…' : quantity === 'flops_rate' ? 'TFLOP/s, PFLOP/s' : 'k, M, B, T';
      return { ok: false, message: `unknown unit “${suffixText.trim()}” (try ${known})` };
    }
    const powerOfTen = Math.log10(scale);
    if (Number.isInteger(powerOfTen)) exponent += powerOfTen;
    else factor = scale;
  }
  const value = Number(`${digits}e${exponent}`) * factor;
  if (!Number.isFinite(value)) return { ok: false, message: `“${input.trim()}” is too large` };
  return { ok: true, value };
}

/** A positive integer within [min, max], e.g. a GPU count. */
export function parseInteger(input: string, min: number, max: number): ParseResult {
  const parsed = parseQuantity(input, 'count');
  if (!parsed.ok) return parsed;
  if (!Number.isInteger(parsed.value)) return { ok: false, message: 'must be a whole number' };
  return checkRange(parsed.value, min, max);
}

export function checkRange(value: number, min: number, max: number, describe: (n: number) => string = String): ParseResult {
  if (value < min) return { ok: false, message: `must be at least ${describe(min)}` };
  if (value > max) return { ok: false, message: `must be at most ${describe(max)}` };
  return { ok: true, value };
}
