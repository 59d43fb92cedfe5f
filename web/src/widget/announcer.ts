// The widget's status line for screen readers: polite and debounced, one summary after the
// learner pauses, not one per slider step.

import { h } from '../dom/dom';

const ANNOUNCE_AFTER_MS = 900;

export class Announcer {
  readonly element: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = '';

  constructor() {
    this.element = h('p', { className: 'ts-visually-hidden', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
  }

  /** Speaks `sentence()` once the input rests; the sentence is written then, from what is on screen then. */
  schedule(sentence: () => string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const text = sentence();
      if (text === this.last) return;
      this.last = text;
      this.element.textContent = text;
    }, ANNOUNCE_AFTER_MS);
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}
