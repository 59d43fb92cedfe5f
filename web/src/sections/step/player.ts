// The step's playhead: play, pause, back and next, the scrubber and a click on the chart; what is
// held under it in words and in the legend; the live region; and the playhead in the address.

import { h, setAttribute, setClass, setFigure, setHidden, setText, uniqueId } from '../../dom/dom';
import type { StepBytes } from '../../engine/types';
import { legend } from '../../figures/legend';
import type { Part } from '../../figures/parts';
import { STEP_KEYS, type StepChart } from '../../figures/step-chart';
import { withElements } from '../../i18n/i18n';
import type { SectionContext } from '../context';
import { phaseInWords, type Event, type GoodTimeline, type Recompute } from './words';

/** A step plays in this many seconds of the learner's time, whatever it takes on the GPU. */
const PLAY_SECONDS = 12;
/** While playing, the live region speaks at most this often: one phase at a time, not a stream. */
const LIVE_EVERY_MS = 2500;

type Speak = 'now' | 'throttled' | 'no';

const endOf = (event: Event) => event.start + event.seconds;

/** The buttons, the scrubber and the texts under the chart. */
function playerElements({ t, units, parts }: SectionContext) {
  // The names are the visible words ("Back one event"): the arrows are decoration, the rest is for screen readers.
  const back = h(
    'button',
    { type: 'button', className: 'ts-button ts-button-quiet' },
    h('span', { 'aria-hidden': 'true' }, '◀ '),
    t('step.back', 'Back'),
    h('span', { className: 'ts-visually-hidden' }, t('step.back_hidden', ' one event')),
  );
  const play = h('button', { type: 'button', className: 'ts-button ts-button-primary ts-step-play' }, t('step.play', 'Play'));
  const forward = h(
    'button',
    { type: 'button', className: 'ts-button ts-button-quiet' },
    t('step.next', 'Next'),
    h('span', { className: 'ts-visually-hidden' }, t('step.next_hidden', ' event')),
    h('span', { 'aria-hidden': 'true' }, ' ▶'),
  );
  const scrubberId = uniqueId('scrubber');
  const scrubber = h('input', {
    type: 'range',
    className: 'ts-range ts-step-scrubber',
    id: scrubberId,
    min: '0',
    max: '0',
    step: '1',
    value: '0',
  });
  const controls = h(
    'div',
    { className: 'ts-step-controls', role: 'group', 'aria-label': t('step.playhead', 'Playhead') },
    h('div', { className: 'ts-step-buttons' }, back, play, forward),
    h('label', { className: 'ts-label ts-step-scrub-label', for: scrubberId }, t('step.scrubber', 'Moment in the step (event by event)')),
    scrubber,
  );
  const phase = h('p', { className: 'ts-step-phase', 'data-figure': 'step-phase' });
  const heldNow = h('strong', { 'data-figure': 'step-held' });
  const heldOf = h('span');
  const held = h('p', { className: 'ts-step-held' }, withElements(t('step.held', 'Held then: {held}'), { held: heldNow }), heldOf);
  // Polite, without role=status: the widget's own status line stays the one summary of the scenario.
  const live = h('p', { className: 'ts-visually-hidden ts-step-live', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const heldLegend = legend(STEP_KEYS, (value) => units.formatBytes(value), parts, t('step.legend', 'Held at the playhead'), {
    showCaption: true,
  });
  return { back, play, forward, scrubber, controls, phase, heldNow, heldOf, held, live, heldLegend };
}

export class StepPlayer {
  /** The controls group, then the phase, held and live lines, then the legend: in the figure, in that order. */
  readonly elements: HTMLElement[];
  private readonly parts: ReturnType<typeof playerElements>;
  private timeline: GoodTimeline | null = null;
  private recompute: Recompute = 'none';
  private index = 0;
  private time = 0;
  /** True once the learner (or a link) placed the playhead: from then on the address keeps it. */
  private placed = false;
  private playing = false;
  private frame = 0;
  private lastFrame: number | null = null;
  private lastSpoken = 0;
  private liveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The playhead the address held when the section was built (null: none), placed by the first timeline. */
  private linkedIndex: number | null | undefined;
  private readonly reducedMotion = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

  constructor(
    private readonly context: SectionContext,
    private readonly chart: StepChart,
    private readonly isConnected: () => boolean,
  ) {
    this.parts = playerElements(context);
    const { controls, phase, held, live, heldLegend } = this.parts;
    this.elements = [controls, phase, held, live, heldLegend.element];
    this.linkedIndex = context.playhead() ?? undefined;
    this.listen();
    this.syncMotion();
    this.reducedMotion?.addEventListener?.('change', () => this.syncMotion());
    context.onPlayheadFromLink((linked) => this.fromLink(linked));
  }

  /** A new timeline: a link's playhead is placed on it, else the playhead keeps its share of the step. */
  setTimeline(timeline: GoodTimeline, recompute: Recompute): void {
    const previous = this.timeline;
    const fraction = previous ? this.time / previous.seconds : 0;
    this.timeline = timeline;
    this.recompute = recompute;
    setAttribute(this.parts.scrubber, 'max', String(timeline.events.length - 1));
    if (this.linkedIndex !== undefined) {
      // A link's event index counts the events of the link's own scenario: this one.
      const linked = this.linkedIndex;
      this.linkedIndex = undefined;
      this.placed = linked !== null;
      this.index = Math.min(timeline.events.length - 1, Math.max(0, linked ?? 0));
      this.time = linked === null ? 0 : endOf(timeline.events[this.index]);
    } else if (previous) {
      this.time = Math.min(1, Math.max(0, fraction)) * timeline.seconds;
      this.index = this.indexAt(this.time);
    }
    this.show('no');
    this.report();
  }

  private listen(): void {
    const { play, back, forward, scrubber } = this.parts;
    play.addEventListener('click', () => (this.playing ? this.pause() : this.start()));
    back.addEventListener('click', () => this.stepTo(this.index - 1, 'now'));
    forward.addEventListener('click', () => this.stepTo(this.index + 1, 'now'));
    // The range speaks its own value text (the phase), so the live region stays quiet for it.
    scrubber.addEventListener('input', () => this.stepTo(Number(scrubber.value), 'no'));
    // A click on the chart puts the playhead there (the scrubber and the buttons do it by keyboard).
    this.chart.element.addEventListener('click', (event) => {
      const at = this.chart.timeAt(event.clientX);
      if (at !== null) this.stepTo(this.indexAt(at), 'now');
    });
  }

  /** The event under a time: the first that ends at or after it. */
  private indexAt(seconds: number): number {
    if (!this.timeline) return 0;
    const events = this.timeline.events;
    let low = 0;
    let high = events.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (endOf(events[middle]) >= seconds) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private speak(text: string, now: boolean): void {
    clearTimeout(this.liveTimer);
    const wait = now ? 0 : Math.max(0, this.lastSpoken + LIVE_EVERY_MS - Date.now());
    this.liveTimer = setTimeout(() => {
      this.lastSpoken = Date.now();
      setText(this.parts.live, text);
    }, wait);
  }

  /** Shows the event under the playhead: the phase, what is held, the legend, the scrubber. */
  private show(speak: Speak): void {
    const { timeline, index, parts } = this;
    if (!timeline) return;
    const { t, units } = this.context;
    const event = timeline.events[index];
    const words = phaseInWords(event, timeline, this.recompute, this.context);
    const sentence = `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
    setText(parts.phase, sentence);
    setAttribute(parts.phase, 'data-index', String(index));
    setFigure(parts.heldNow, units.formatBytes(event.held.total), event.held.total);
    setText(
      parts.heldOf,
      t('step.held_at', ', at {time} of {step}', {
        time: units.formatDuration(endOf(event)),
        step: units.formatDuration(timeline.seconds),
      }),
    );
    const held: Part[] = STEP_KEYS.map((key) => ({ key, value: event.held[key as Exclude<keyof StepBytes, 'total'>] ?? 0 })).filter(
      (part) => part.value > 0,
    );
    parts.heldLegend.update(held);
    if (parts.scrubber.value !== String(index)) parts.scrubber.value = String(index);
    setAttribute(parts.scrubber, 'aria-valuetext', sentence);
    this.chart.setPlayhead(this.time);
    if (speak !== 'no') this.speak(sentence, speak === 'now');
  }

  private report(): void {
    if (this.placed) this.context.setPlayhead(this.index);
  }

  private goTo(next: number, speak: 'now' | 'no'): void {
    if (!this.timeline) return;
    this.index = Math.min(this.timeline.events.length - 1, Math.max(0, next));
    this.time = endOf(this.timeline.events[this.index]);
    this.placed = true;
    this.show(speak);
    this.report();
  }

  private stepTo(next: number, speak: 'now' | 'no'): void {
    this.setPlaying(false);
    this.goTo(next, speak);
  }

  private setPlaying(on: boolean): void {
    const { play } = this.parts;
    this.playing = on;
    setText(play, on ? this.context.t('step.pause', 'Pause') : this.context.t('step.play', 'Play'));
    setClass(play, 'ts-step-playing', on);
    if (on) return;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.lastFrame = null;
  }

  private pause(): void {
    this.setPlaying(false);
    this.show('now');
    this.report();
  }

  private readonly tick = (now: number): void => {
    this.frame = 0;
    const { timeline } = this;
    if (!this.playing || !timeline || !this.isConnected()) {
      this.setPlaying(false);
      return;
    }
    const elapsed = this.lastFrame === null ? 0 : now - this.lastFrame;
    this.lastFrame = now;
    this.time = Math.min(timeline.seconds, this.time + (elapsed / 1000) * (timeline.seconds / PLAY_SECONDS));
    const next = this.indexAt(this.time);
    const moved = next !== this.index;
    this.index = next;
    if (this.time >= timeline.seconds) {
      this.index = timeline.events.length - 1;
      this.pause();
      return;
    }
    if (moved) {
      this.show('throttled');
      this.report();
    } else {
      this.chart.setPlayhead(this.time);
    }
    this.frame = requestAnimationFrame(this.tick);
  };

  private start(): void {
    const { timeline } = this;
    if (!timeline || this.reducedMotion?.matches) return;
    // At the end, play starts the step again.
    if (this.time >= timeline.seconds || this.index >= timeline.events.length - 1) {
      this.time = 0;
      this.index = 0;
    }
    this.placed = true;
    this.setPlaying(true);
    this.show('now');
    this.frame = requestAnimationFrame(this.tick);
  }

  /** Reduced motion: no animation at all; the scrubber and the step buttons move the playhead. */
  private syncMotion(): void {
    const still = this.reducedMotion?.matches ?? false;
    if (still && this.playing) this.setPlaying(false);
    setHidden(this.parts.play, still);
  }

  /** The address brought another playhead; the widget has redrawn every section for the link first. */
  private fromLink(linked: number | null): void {
    this.setPlaying(false);
    if (linked !== null) {
      this.goTo(linked, 'no');
      return;
    }
    this.placed = false;
    this.index = 0;
    this.time = 0;
    this.show('no');
  }
}
