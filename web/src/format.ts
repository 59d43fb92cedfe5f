// Display formatting for engine figures. These functions only choose units, round and
// spell numbers; they never derive a new quantity. Memory is decimal (1 GB = 10^9 bytes).

const SUPERSCRIPT_DIGITS = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/** 25 → "²⁵", -3 → "⁻³". */
export function superscript(exponent: number): string {
  const text = String(Math.trunc(exponent));
  let out = '';
  for (const ch of text) out += ch === '-' ? '⁻' : SUPERSCRIPT_DIGITS[Number(ch)];
  return out;
}

function finite(value: number): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A number with thousands separators and at most `significant` significant digits. */
export function formatNumber(value: number, significant = 3): string {
  if (!finite(value)) return '–';
  if (value === 0) return '0';
  const rounded = Number(value.toPrecision(significant));
  // A fixed locale: the page reads the same everywhere (no "1.234,5" surprises).
  return numberFormat(Math.max(significant, digitsBeforePoint(rounded))).format(rounded);
}

const numberFormats = new Map<number, Intl.NumberFormat>();
function numberFormat(maximumSignificantDigits: number): Intl.NumberFormat {
  let format = numberFormats.get(maximumSignificantDigits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumSignificantDigits: Math.min(21, maximumSignificantDigits) });
    numberFormats.set(maximumSignificantDigits, format);
  }
  return format;
}

function digitsBeforePoint(value: number): number {
  const abs = Math.abs(value);
  return abs < 1 ? 1 : Math.floor(Math.log10(abs)) + 1;
}

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** An integer count as written: 16384 → "16,384". */
export function formatInteger(value: number): string {
  if (!finite(value)) return '–';
  return integerFormat.format(Math.round(value));
}

/** Mantissa and exponent such that value ≈ mantissa × 10^exponent, mantissa in [1, 10). */
export function splitScientific(value: number, significant = 2): { mantissa: string; exponent: number } {
  if (!finite(value) || value === 0) return { mantissa: '0', exponent: 0 };
  const [mantissaText, exponentText] = value.toExponential(significant - 1).split('e');
  return { mantissa: mantissaText, exponent: Number(exponentText) };
}

/** 3.79e25 → "3.8 × 10²⁵" (the lesson's notation). Small magnitudes stay plain. */
export function formatScientific(value: number, significant = 2): string {
  if (!finite(value)) return '–';
  if (value !== 0 && Math.abs(value) >= 1e-3 && Math.abs(value) < 1e6) return formatNumber(value, significant + 1);
  const { mantissa, exponent } = splitScientific(value, significant);
  if (value === 0) return '0';
  return `${mantissa} × 10${superscript(exponent)}`;
}

const COUNT_WORDS: Array<[number, string, string]> = [
  [1e12, 'trillion', 'T'],
  [1e9, 'billion', 'B'],
  [1e6, 'million', 'M'],
];

/** 70.55e9 → "70.6 billion"; short: "70.6B". Counts under a million keep their digits. */
export function formatCount(value: number, options: { short?: boolean; significant?: number } = {}): string {
  if (!finite(value)) return '–';
  const significant = options.significant ?? 3;
  const abs = Math.abs(value);
  if (abs >= 1e15) return formatScientific(value, significant);
  for (const [scale, word, letter] of COUNT_WORDS) {
    // Round first so 999.96 million reads "1 billion", not "1,000 million".
    if (Number(abs.toPrecision(significant)) >= scale) {
      const scaled = formatNumber(value / scale, significant);
      return options.short ? `${scaled}${letter}` : `${scaled} ${word}`;
    }
  }
  return abs >= 1000 ? formatInteger(value) : formatNumber(value, significant);
}

const BYTE_UNITS: Array<[number, string]> = [
  [1e15, 'PB'],
  [1e12, 'TB'],
  [1e9, 'GB'],
  [1e6, 'MB'],
  [1e3, 'kB'],
];

/** Decimal units (1 GB = 10⁹ bytes), three significant digits: 1.129e12 → "1.13 TB". */
export function formatBytes(bytes: number, significant = 3): string {
  if (!finite(bytes)) return '–';
  const abs = Math.abs(bytes);
  for (const [scale, unit] of BYTE_UNITS) {
    if (Number(abs.toPrecision(significant)) >= scale) return `${formatNumber(bytes / scale, significant)} ${unit}`;
  }
  return `${formatNumber(bytes, significant)} B`;
}

/** Bytes in a fixed unit, for axis ticks that must line up: (1.2e12, 'GB') → "1,200 GB". */
export function formatBytesIn(bytes: number, unit: 'GB' | 'TB'): string {
  const scale = unit === 'TB' ? 1e12 : 1e9;
  return `${formatNumber(bytes / scale, 3)} ${unit}`;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;
const YEAR = 365.25 * DAY; // Julian year, as astronomers and most back-of-envelope estimates use.

/** Seconds in the largest sensible unit: "42 seconds", "5.5 hours", "68 days", "3,050 years". */
export function formatDuration(seconds: number): string {
  if (!finite(seconds) || seconds < 0) return '–';
  const pick = (value: number, unit: string) => {
    const text = formatNumber(value, value < 10 ? 2 : 3);
    return `${text} ${text === '1' ? unit : unit + 's'}`;
  };
  if (seconds < 2 * MINUTE) return pick(seconds, 'second');
  if (seconds < 2 * HOUR) return pick(seconds / MINUTE, 'minute');
  if (seconds < 2 * DAY) return pick(seconds / HOUR, 'hour');
  if (seconds < YEAR) return pick(seconds / DAY, 'day');
  if (seconds >= 1e6 * YEAR) return `${formatScientific(seconds / YEAR, 2)} years`;
  return pick(seconds / YEAR, 'year');
}

export const SECONDS_PER = { minute: MINUTE, hour: HOUR, day: DAY, year: YEAR } as const;

/** 0.4 → "40%", 0.0267 → "2.7%". */
export function formatPercent(fraction: number, significant = 2): string {
  if (!finite(fraction)) return '–';
  const percent = fraction * 100;
  if (percent === 0) return '0%';
  if (Math.abs(percent) >= 10) return `${formatNumber(percent, Math.max(significant, digitsBeforePoint(percent)))}%`;
  return `${formatNumber(percent, significant)}%`;
}

/** 8 → "8×", 8.25 → "8.3×". */
export function formatRatio(ratio: number): string {
  if (!finite(ratio)) return '–';
  return `${formatNumber(ratio, ratio >= 10 ? 3 : 2)}×`;
}

/** 989e12 → "989 TFLOP/s". */
export function formatFlopsRate(flopsPerSecond: number): string {
  if (!finite(flopsPerSecond)) return '–';
  const units: Array<[number, string]> = [[1e15, 'PFLOP/s'], [1e12, 'TFLOP/s'], [1e9, 'GFLOP/s']];
  for (const [scale, unit] of units) {
    if (Number(Math.abs(flopsPerSecond).toPrecision(3)) >= scale) return `${formatNumber(flopsPerSecond / scale, 3)} ${unit}`;
  }
  return `${formatNumber(flopsPerSecond, 3)} FLOP/s`;
}

/** Joules as watt-hours: 3.6e12 J → "1 GWh". */
export function formatEnergy(joules: number): string {
  if (!finite(joules)) return '–';
  const wattHours = joules / HOUR;
  const units: Array<[number, string]> = [[1e9, 'GWh'], [1e6, 'MWh'], [1e3, 'kWh']];
  for (const [scale, unit] of units) {
    if (Number(Math.abs(wattHours).toPrecision(3)) >= scale) return `${formatNumber(wattHours / scale, 3)} ${unit}`;
  }
  return `${formatNumber(wattHours, 3)} Wh`;
}

/** US dollars, whole: 1234567 → "$1.23 million". */
export function formatMoney(dollars: number): string {
  if (!finite(dollars)) return '–';
  if (Math.abs(dollars) >= 1e6) return `$${formatCount(dollars)}`;
  return `$${formatInteger(dollars)}`;
}
