// What the widget (web/src/widget/widget.ts, the owner of the state) hands each section component.

import type { Control, RangeOptions } from '../controls/controls';
import type { Part, PartKey } from '../figures/parts';
import type { Language, Translate } from '../i18n/i18n';
import type { Choice, Estimate, PartialScenario, Scenario, StepTimeline, Story, ViewText } from '../engine/types';
import type { Units } from '../engine/units';
import type { ViewParts } from '../engine/view';

export type HeadingTag = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

/**
 * A section's name for its numbered title: the lesson path's parts are numbered in the lesson's
 * order; the deeper parts (and the sections they hold) are not.
 */
export type NumberedSection =
  | 'run-vs-train'
  | 'training-extras'
  | 'sharding-checkpointing'
  | 'compute-time'
  | 'precision'
  | 'activations'
  | 'step'
  | 'sharding'
  | 'time'
  | 'fit'
  | 'config';

/** The deeper parts a lesson part may lead to (widget/parts-plan.ts). */
export type DeeperLink = 'layouts' | 'step' | 'activations' | 'time-over-gpus' | 'fit' | 'precision' | 'your-model';

export interface SectionContext {
  /** The widget's language (docs/i18n.md). */
  readonly language: Language;
  /** The widget's translator: every word a section shows goes through it, numbers written by `units`. */
  readonly t: Translate;
  /** The widget's writers and readers of quantities: its engine's, in its language. */
  readonly units: Units;
  /** Each part's name (weights, gradients, …) in the widget's language. */
  readonly parts: Readonly<Record<PartKey, string>>;
  /** A slider with its exact field, registered: the engine's slider range for the field and its reading of typed text (unless given). */
  range(options: Omit<RangeOptions, 'parse' | 'scale'> & Partial<Pick<RangeOptions, 'parse' | 'scale'>>): Control;
  /** h1…h6 for a heading `depth` levels below the widget's title. */
  headingTag(depth: number): HeadingTag;
  /** "2. Activations…": the title numbered among the sections this widget shows, from 1. */
  numbered(section: NumberedSection, title: string): string;
  /** A choice field's values with the engine's words for each ("training.optimizer"). */
  choices(path: string): readonly Choice[];
  /** Registers a control so the widget keeps it in step with the scenario. */
  add<T extends Control>(control: T): T;
  /** A control's new value for one scenario field. */
  onValue(path: string, value: unknown): void;
  /**
   * Loads a whole scenario the engine wrote (a layout "What fits" found) in a history entry of its
   * own: the browser's Back brings back the scenario before it.
   */
  load(scenario: Scenario): void;
  /** Loads a lesson story's scenario and lands on the part it illustrates (scrolled to and highlighted). */
  story(story: Story): void;
  /** Whether this widget shows a deeper part, so a lesson part offers its link only when it leads somewhere. */
  hasDeeper(part: DeeperLink): boolean;
  /** Opens a deeper part (built on first opening) and brings it into view. */
  openDeeper(part: DeeperLink): void;
  /** Replaces the learner's overrides and redraws (a "try this" button). */
  change(next: (overrides: PartialScenario) => PartialScenario): void;
  /** The step's playhead (an event index) as the address set it, or null. */
  playhead(): number | null;
  /** The step section moved its playhead: the address keeps it (written once input settles). */
  setPlayhead(index: number | null): void;
  /** The address brought another playhead (back, forward, an edited link). */
  onPlayheadFromLink(listener: (index: number | null) => void): void;
}

/**
 * What the widget pushes to every section after an input: everything it draws, asked from the
 * engine in one call (engine/view.ts). A section reads it and calls nothing back.
 */
export interface PageView {
  /** The engine's estimate for the scenario on screen. */
  readonly estimate: Estimate;
  /** The same scenario as one whole copy of the model: one GPU, unsharded (section 1 compares it). */
  readonly reference: Estimate;
  /** The scenario on screen, every field resolved by the engine. */
  readonly scenario: Scenario;
  /** Sentences the engine writes for the scenario (the ZeRO stages' formula). */
  readonly text: ViewText;
  /** One training step on one GPU, when a section that draws it is updated (needs.step); else null. */
  readonly step: StepTimeline | null;
  /** True when the widget is narrower than a phone in landscape (fewer ticks and chips). */
  readonly narrow: boolean;
}

/** A section or figure: built once, then updated in place from each new view. */
export interface SectionView {
  readonly element: HTMLElement;
  update(view: PageView): void;
  /** True when the section reads only the reference: parallel settings never change it. */
  readonly referenceOnly?: boolean;
  /**
   * The parts of the engine's view the section draws (the step timeline, the communication curve or
   * schedule): the widget asks the engine for them when this section is updated, and not otherwise.
   */
  readonly needs?: Partial<ViewParts>;
  /**
   * Parts of a tall section that are updated on their own schedule: a figure below the fold waits
   * (widget/section-views.ts) while the part of its section that is on screen changes at once.
   */
  readonly parts?: readonly SectionView[];
  /** Draws now what the section put off (an answer it computes only near the viewport): "show me" lands on it. */
  settle?(): void;
}

/** The step's passing parts at its peak (ZeRO-3's gathered layers, ZeRO-2/3's full-gradient buffer), when held. */
export function extraParts(t: Translate, perGpu: { gathered_weights: number; temporary: number }): Part[] {
  const parts: Part[] = [];
  if (perGpu.gathered_weights > 0)
    parts.push({
      key: 'gathered_weights',
      value: perGpu.gathered_weights,
      detail: t('memory.part.gathered_detail', 'other GPUs’ slices, gathered for a layer'),
    });
  if (perGpu.temporary > 0)
    parts.push({
      key: 'temporary',
      value: perGpu.temporary,
      detail: t('memory.part.temporary_detail', 'a layer’s full gradients, before they are shared out'),
    });
  return parts;
}
