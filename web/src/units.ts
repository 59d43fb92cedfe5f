// The one place the page reaches for reading, formatting and bounding quantities. Every
// section and figure imports from here, so moving these to the engine is a change in one file.

export {
  formatBytes, formatCount, formatDuration, formatEnergy, formatFlopsRate, formatInteger, formatMoney,
  formatNumber, formatPercent, formatRatio, formatScientific, SECONDS_PER,
} from './format';
export { checkRange, parseInteger, parseQuantity, type ParseResult } from './parse';
