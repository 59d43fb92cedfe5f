// Which parts a widget shows, in which order, and which of the deeper ones start open (docs/page.md,
// "The lesson path"). The lesson's four takeaways come first, one part each, then the quiz, then the
// deeper tools, each closed until a learner opens it — unless the author names it in `sections`,
// which turns it on. Pure: the widget builds what the plan says, a unit test reads the plan.

/** The lesson path, one part per takeaway of the lesson, in the lesson's order. */
export const LESSON_PARTS = ['run-vs-train', 'training-extras', 'sharding-checkpointing', 'compute-time'] as const;
/** The tools one step away from the lesson, in the order they are offered. */
export const DEEPER_PARTS = ['layouts', 'step', 'activations', 'time-over-gpus', 'fit', 'precision', 'your-model'] as const;

export type LessonPart = (typeof LESSON_PARTS)[number];
export type DeeperPart = (typeof DEEPER_PARTS)[number];
export type Part = LessonPart | DeeperPart;

/**
 * Names an author may give in `sections`: a part, the quiz, or a group. The groups keep the names
 * of the widget's first sections working: `memory` is the memory half of the lesson with its
 * deeper tools (closed), `time` the time half with its own, `lesson` the four parts, `tools` every
 * deeper tool behind its disclosure, `deeper` every deeper tool turned on.
 */
export const SECTION_GROUPS = {
  lesson: { lesson: [...LESSON_PARTS], closed: [] },
  memory: {
    lesson: ['run-vs-train', 'training-extras', 'sharding-checkpointing'],
    closed: ['layouts', 'step', 'activations', 'fit', 'precision', 'your-model'],
  },
  time: { lesson: ['compute-time'], closed: ['time-over-gpus'] },
  deeper: { lesson: [], open: [...DEEPER_PARTS] },
  tools: { lesson: [], closed: [...DEEPER_PARTS] },
} as const satisfies Record<string, { lesson: readonly LessonPart[]; closed?: readonly DeeperPart[]; open?: readonly DeeperPart[] }>;

export type SectionGroup = keyof typeof SECTION_GROUPS;
export type Section = Part | SectionGroup | 'quiz';

/** Every name `sections` takes, for the settings' reader and its message. */
export const SECTION_NAMES: readonly Section[] = [
  ...LESSON_PARTS,
  ...DEEPER_PARTS,
  'quiz',
  ...(Object.keys(SECTION_GROUPS) as SectionGroup[]),
];

export interface PartsPlan {
  /** The lesson parts shown, in the lesson's order. */
  readonly lesson: readonly LessonPart[];
  /** The deeper parts shown, in their order; `open`: turned on by the author (drawn at once, no disclosure). */
  readonly deeper: readonly { readonly part: DeeperPart; readonly open: boolean }[];
  readonly quiz: boolean;
}

/** What a widget with no `sections` shows: the lesson, the quiz, and every deeper tool one click away. */
export const DEFAULT_SECTIONS: readonly Section[] = ['lesson', 'quiz', 'tools'];

export function isSection(name: string): name is Section {
  return (SECTION_NAMES as readonly string[]).includes(name);
}

/** The plan for the names an author gave (none: the whole page, every deeper part closed). */
export function planParts(sections: readonly Section[] | undefined): PartsPlan {
  if (!sections || sections.length === 0) return planParts(DEFAULT_SECTIONS);
  const lesson = new Set<LessonPart>();
  const open = new Set<DeeperPart>();
  const closed = new Set<DeeperPart>();
  for (const name of sections) {
    if ((LESSON_PARTS as readonly string[]).includes(name)) lesson.add(name as LessonPart);
    else if ((DEEPER_PARTS as readonly string[]).includes(name)) open.add(name as DeeperPart);
    else if (name in SECTION_GROUPS) {
      const group: { lesson: readonly LessonPart[]; closed?: readonly DeeperPart[]; open?: readonly DeeperPart[] } =
        SECTION_GROUPS[name as SectionGroup];
      for (const part of group.lesson) lesson.add(part);
      for (const part of group.closed ?? []) closed.add(part);
      for (const part of group.open ?? []) open.add(part);
    }
  }
  return {
    lesson: LESSON_PARTS.filter((part) => lesson.has(part)),
    deeper: DEEPER_PARTS.filter((part) => open.has(part) || closed.has(part)).map((part) => ({ part, open: open.has(part) })),
    quiz: sections.includes('quiz'),
  };
}

/**
 * The deeper part whose controls set a scenario field: a shared link that sets it opens that part,
 * so the learner sees the setting that shapes the figures. Fields the lesson path itself offers
 * (model, optimizer, ZeRO stage, GPUs, checkpointing, tokens) open nothing.
 */
const FIELD_PARTS: ReadonlyArray<readonly [prefix: string, part: DeeperPart]> = [
  ['inference.', 'precision'],
  ['training.precision', 'precision'],
  ['training.precision_recipe', 'precision'],
  ['training.framework', 'precision'],
  ['training.paged_optimizer', 'precision'],
  ['training.optimizer_in_backward', 'precision'],
  ['training.accounting', 'precision'],
  ['training.micro_batch', 'activations'],
  ['training.sequence', 'activations'],
  ['training.global_batch', 'activations'],
  ['training.flash_attention', 'activations'],
  ['training.sequence_parallel', 'layouts'],
  ['parallel.tensor', 'layouts'],
  ['parallel.pipeline', 'layouts'],
  ['parallel.context', 'layouts'],
  ['parallel.expert', 'layouts'],
  ['parallel.interleave', 'layouts'],
  ['parallel.first_stage_layers', 'layouts'],
  ['parallel.last_stage_layers', 'layouts'],
  ['hardware.', 'time-over-gpus'],
  ['training.attention_flops', 'time-over-gpus'],
  ['training.method', 'fit'],
  ['training.lora', 'fit'],
  ['training.offload', 'fit'],
  ['model.architecture', 'your-model'],
];

/** The deeper parts a partial scenario's fields need open (dotted paths of its set leaves), with the step's when a playhead is set. */
export function partsForFields(fields: readonly string[], playhead: boolean): DeeperPart[] {
  const parts = new Set<DeeperPart>();
  for (const field of fields) {
    // training.sequence_parallel is the layouts', not the activations' training.sequence.
    const match = FIELD_PARTS.find(
      ([prefix]) => field === prefix || (prefix.endsWith('.') ? field.startsWith(prefix) : field.startsWith(`${prefix}.`)),
    );
    if (match) parts.add(match[1]);
  }
  if (playhead) parts.add('step');
  return DEEPER_PARTS.filter((part) => parts.has(part));
}

/** The dotted paths of a partial scenario's leaves ({"parallel":{"tensor":8}} → parallel.tensor). */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix ? [prefix] : [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => leafPaths(child, prefix ? `${prefix}.${key}` : key));
}
