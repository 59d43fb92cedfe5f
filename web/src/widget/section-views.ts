// The sections on screen and when each is updated. Sections and parts near the viewport
// (ON_SCREEN_MARGIN) show a new view at once; while a learner drags a control, the others wait
// until the input rests, then an idle moment, or until they come near, whichever is first, so a
// slider step costs only what the learner can see. A section far off screen is built only when
// it nears the viewport (placeholder).

import { h } from '../dom/dom';
import { bothParts, NO_PARTS, type ViewParts } from '../engine/view';
import type { PageView, SectionView } from '../sections/context';
import { INPUT_REST_MS, NearViewport, ON_SCREEN_MARGIN, STALE_IDLE_TIMEOUT_MS, whenNear, whenRested } from './lazy';

/** The view on screen, with the parts asked for (the widget asks the engine for those it does not hold yet). */
export type LatestView = (parts: ViewParts) => PageView | null;

/** Every part the sections draw. */
function partsOf(views: readonly SectionView[]): ViewParts {
  let parts = NO_PARTS;
  for (const view of views) if (view.needs) parts = bothParts(parts, view.needs);
  return parts;
}

export class SectionViews {
  private readonly views: SectionView[] = [];
  /** Sections far off screen that have not shown the latest view yet; updated when idle or near. */
  private readonly stale = new Set<SectionView>();
  private readonly nearViewport = new NearViewport((element) => this.refreshIfStale(element), ON_SCREEN_MARGIN);
  private cancelRefresh: (() => void) | null = null;
  private readonly cancels: Array<() => void> = [];
  /** Builds a pending section now (show-me lands in it); each section by its data-ts-section name. */
  private readonly buildNow = new Map<string, () => void>();

  /** `afterBuild` runs when a pending section joins (the widget syncs its new controls). */
  constructor(
    private readonly latest: LatestView,
    private readonly afterBuild: () => void,
  ) {}

  add(view: SectionView): void {
    for (const each of [view, ...(view.parts ?? [])]) {
      this.views.push(each);
      this.nearViewport.observe(each.element);
    }
  }

  /** The parts of the view the next update draws now (ViewParts): those of the sections it updates. */
  wants(offscreenMayWait: boolean): ViewParts {
    return partsOf(this.views.filter((view) => view.needs && (!offscreenMayWait || this.nearViewport.isNear(view.element))));
  }

  /** Shows `view` on the sections that need it now; `referenceUnchanged`: the one-copy reference is the one they show. */
  update(view: PageView, referenceUnchanged: boolean, offscreenMayWait: boolean): void {
    for (const each of this.views) {
      if (referenceUnchanged && each.referenceOnly && !this.stale.has(each)) continue;
      if (!offscreenMayWait || this.nearViewport.isNear(each.element)) {
        this.stale.delete(each);
        each.update(view);
      } else {
        this.stale.add(each);
      }
    }
    if (this.stale.size === 0) return;
    this.cancelRefresh?.();
    this.cancelRefresh = whenRested(
      () => {
        this.cancelRefresh = null;
        this.refresh([...this.stale]);
      },
      INPUT_REST_MS,
      STALE_IDLE_TIMEOUT_MS,
    );
  }

  /** Every section again (the widget's width crossed the narrow line). */
  updateAll(): void {
    this.refresh(this.views);
  }

  private refresh(views: readonly SectionView[]): void {
    const view = this.latest(partsOf(views));
    if (!view) return;
    for (const each of views) {
      this.stale.delete(each);
      each.update(view);
    }
  }

  private refreshIfStale(element: Element): void {
    this.refresh([...this.stale].filter((view) => view.element === element));
  }

  /**
   * A stand-in for an off-screen section, replaced by the section when it nears the viewport (or,
   * with `whenNear: false`, only when asked: buildNamed, buildAll).
   */
  placeholder(name: string, build: () => SectionView | HTMLElement, options: { whenNear?: boolean } = {}): HTMLElement {
    const slot = h('div', { className: 'ts-section ts-section-pending', 'aria-busy': 'true', 'data-ts-section': name });
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      cancel();
      this.buildNow.delete(name);
      const built = build();
      const view = built instanceof HTMLElement ? null : built;
      const element = view ? view.element : (built as HTMLElement);
      element.setAttribute('data-ts-section', name);
      slot.replaceWith(element);
      if (!view) return;
      this.add(view);
      this.refresh([view, ...(view.parts ?? [])]);
      this.afterBuild();
    };
    const cancel = options.whenNear === false ? () => {} : whenNear(slot, run);
    this.cancels.push(cancel);
    this.buildNow.set(name, run);
    return slot;
  }

  /** Builds one pending section now, by its data-ts-section name (a story lands in it, a link opens it). */
  buildNamed(name: string): void {
    this.buildNow.get(name)?.();
  }

  /** Builds every pending section now: one built while the view scrolls past would move the figure show-me lands on. */
  buildAll(): void {
    for (const run of [...this.buildNow.values()]) run();
  }

  /** Every section shows the latest view and draws now what it put off: "show me" is about to land. */
  settleAll(): void {
    if (this.stale.size > 0) this.refresh([...this.stale]);
    for (const each of this.views) each.settle?.();
  }

  destroy(): void {
    for (const cancel of this.cancels) cancel();
    this.cancelRefresh?.();
    this.nearViewport.disconnect();
  }
}
