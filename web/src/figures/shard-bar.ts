// The whole model's states as one bar, each part showing the share one GPU keeps (section 4, sharding).

import { h, setAttribute, setClass, setHidden, setStyle } from '../dom/dom';
import type { Translate } from '../i18n/i18n';
import { percent, type Formatter, type PartKey, type PartLabels } from './parts';

export interface ShardPart {
  key: PartKey;
  /** The whole model's bytes of this component (all GPUs together). */
  whole: number;
  /** What one GPU keeps of it. */
  mine: number;
}

/** Narrowest slice, in pixels, still drawn with its own divider line. */
const MIN_SLICE_PIXELS = 6;

/**
 * The whole model's states as one bar, each component showing the share one GPU keeps: a full
 * copy stays bright; a sharded component fades except for GPU 1's own slice (bright, outlined,
 * never narrower than a few pixels), with faint lines where the other GPUs' slices begin while
 * they are far enough apart to read (the track's width comes from a ResizeObserver).
 */
export function shardBar(
  keys: readonly PartKey[],
  format: Formatter,
  labels: PartLabels,
  t: Translate,
): { element: HTMLElement; update(parts: ShardPart[], max: number, label: string): void } {
  const rows = keys.map((key) => {
    const veil = h('span', { className: 'ts-shard-veil' });
    const mine = h('span', { className: 'ts-shard-mine' });
    const segment = h('span', { className: `ts-seg ts-part-${key}` }, veil, mine);
    /** The segment's share of the track, and the share of the segment one GPU keeps. */
    return { key, segment, veil, mine, ofTrack: 0, share: 1 };
  });
  const track = h(
    'div',
    { className: 'ts-bar-track ts-shard-track' },
    rows.map((row) => row.segment),
  );
  const element = h('div', { className: 'ts-bar', role: 'img' }, track);
  let trackWidth = 0;

  const drawDividers = () => {
    for (const row of rows) {
      const slicePixels = trackWidth * row.ofTrack * row.share;
      const drawn = row.share < 0.999 && slicePixels >= MIN_SLICE_PIXELS;
      setClass(row.veil, 'ts-shard-veil-dense', !drawn);
      setStyle(row.veil, '--ts-slice', drawn ? `${(row.share * 100).toFixed(4)}%` : '');
    }
  };
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver((entries) => {
      const width = entries[entries.length - 1].contentRect.width;
      if (width === trackWidth) return;
      trackWidth = width;
      drawDividers();
    }).observe(track);
  }

  return {
    element,
    update(parts, max, label) {
      setAttribute(element, 'aria-label', label);
      for (const row of rows) {
        const part = parts.find((p) => p.key === row.key) ?? { key: row.key, whole: 0, mine: 0 };
        row.share = part.whole > 0 ? Math.min(1, part.mine / part.whole) : 1;
        row.ofTrack = max > 0 && part.whole > 0 ? Math.min(1, part.whole / max) : 0;
        const sharded = row.share < 0.999;
        setHidden(row.segment, !(part.whole > 0));
        setStyle(row.segment, 'width', percent(part.whole, max));
        setAttribute(
          row.segment,
          'title',
          t('figures.shard.title', '{part}: {whole} in all, {mine} on each GPU', {
            part: labels[row.key],
            whole: format(part.whole),
            mine: format(part.mine),
          }),
        );
        setClass(row.segment, 'ts-seg-sharded', sharded);
        setHidden(row.veil, !sharded);
        setHidden(row.mine, !sharded);
        setStyle(row.mine, 'width', `max(8px, ${(row.share * 100).toFixed(4)}%)`);
      }
      // Without a ResizeObserver, read the width here (a layout per update, on old browsers only).
      if (typeof ResizeObserver !== 'function') trackWidth = track.clientWidth;
      drawDividers();
    },
  };
}
