// How close the engine is to real GPUs, in one line: the validation table's summary (docs/validation.md),
// which the engine carries and its own test keeps equal to what the runs give.

import { h } from '../dom/dom';
import type { ValidationSummary } from '../engine/types';
import type { SectionContext } from './context';

/** "Checked against 49 measured peaks from 5 projects: …", with the table's place. */
export function validationLine(context: SectionContext, summary: ValidationSummary): HTMLElement {
  const { t } = context;
  const { formatInteger, formatPercent } = context.units;
  return h(
    'p',
    { className: 'ts-hint ts-validation', 'data-figure': 'validation-median', 'data-value': String(summary.median_error) },
    t(
      'validation.line',
      'How close is this? Against {peaks} peaks measured on real GPUs by {projects} projects’ runs, the engine is off by {median} in the median run and {worst} in the worst; it calls {wrong} of {runs} runs’ fit or out-of-memory outcome wrong. The runs, their sources and settings: docs/validation.md.',
      {
        peaks: formatInteger(summary.runs_with_peak),
        projects: formatInteger(summary.projects),
        median: formatPercent(summary.median_error),
        worst: formatPercent(summary.worst_error),
        wrong: formatInteger(summary.verdicts_wrong),
        runs: formatInteger(summary.runs_compared),
      },
    ),
  );
}
