// The step's phases as a table (for those who cannot see the chart): when each starts and ends
// and the most memory held during it. Rows are reused: a slider step shows or hides them.

import { h, setHidden, setText } from '../../dom/dom';
import type { SectionContext } from '../context';
import type { PhaseGroup } from './words';

/**
 * Enough rows for a step without accumulation (forward, loss, backward, reductions, optimizer):
 * only more micro-batches than ever before add some.
 */
const TABLE_ROWS = 8;

export function phaseTable({ t, units }: Pick<SectionContext, 't' | 'units'>): {
  element: HTMLElement;
  update(groups: readonly PhaseGroup[]): void;
} {
  const tableBody = h('tbody');
  const tableRows: Array<{ row: HTMLTableRowElement; cells: HTMLTableCellElement[] }> = [];
  const element = h(
    'details',
    { className: 'ts-step-table' },
    h('summary', null, t('step.table.summary', 'The step’s phases as a table')),
    h(
      'div',
      { className: 'ts-step-table-scroll' },
      h(
        'table',
        null,
        h(
          'caption',
          { className: 'ts-visually-hidden' },
          t('step.table.caption', 'Phases of one training step: when each starts and ends, and the most memory held during it'),
        ),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, t('step.table.phase', 'Phase')),
            h('th', { scope: 'col' }, t('step.table.starts', 'Starts')),
            h('th', { scope: 'col' }, t('step.table.ends', 'Ends')),
            h('th', { scope: 'col' }, t('step.table.peak', 'Peak within it')),
          ),
        ),
        tableBody,
      ),
    ),
  );
  const addRow = () => {
    const cells = [h('th', { scope: 'row' }, ''), h('td', null, ''), h('td', null, ''), h('td', null, '')];
    const row = h('tr', null, cells);
    row.hidden = true;
    tableBody.appendChild(row);
    tableRows.push({ row, cells });
  };
  for (let row = 0; row < TABLE_ROWS; row += 1) addRow();
  return {
    element,
    update(groups) {
      while (tableRows.length < groups.length) addRow();
      tableRows.forEach(({ row, cells }, position) => {
        const group = groups[position];
        setHidden(row, !group);
        if (!group) return;
        setText(cells[0], group.label);
        setText(cells[1], units.formatDuration(group.start));
        setText(cells[2], units.formatDuration(group.end));
        setText(cells[3], units.formatBytes(group.peak));
      });
    },
  };
}
