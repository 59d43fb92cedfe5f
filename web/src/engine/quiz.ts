// The quiz's side of the engine door: the module's quiz functions (src/engine/quiz/quiz.hpp,
// docs/quiz.md), the JSON they answer with, and the one place that JSON is read. The quiz
// (web/src/quiz/) calls these typed functions and never parses engine text itself.

/**
 * The quiz functions of the wasm module (src/bindings/engine_bindings.cpp). The module itself
 * satisfies this; tests can pass a stand-in.
 */
export interface QuizEngine {
  quizInstance(itemJson: string, seed: number): string;
  quizGrade(itemJson: string, seed: number, answerJson: string): string;
  quizValidateBank(bankJson: string): string;
  quizReadQuantity(text: string, unit: string): string;
  /** The engine's writing of a count in the widget's language: 16384 → "16,384" ("16.384" in German). */
  formatCount(value: number): string;
  /** The engine's writing of a figure ("percent": 0.7 → "70%"); significantFigures 0 is the default. */
  formatQuantity(value: number, figure: string, significantFigures: number): string;
}

/** One problem the engine found: `item` is the item's id (or "#3"), empty for the bank itself. */
export interface BankProblem {
  item: string;
  field: string;
  message: string;
}

export type ItemKind = 'single_choice' | 'multiple_select' | 'numeric' | 'estimate';

/** quizInstance's answer. */
export interface QuizInstance {
  id: string;
  kind: ItemKind | '';
  takeaway: string;
  /** The item's set: "lesson" (also when the item names none) or "deeper" (docs/quiz.md, "Sets"); absent from older engines. */
  set?: string;
  seed: number;
  prompt: string;
  options: { id: string; text: string }[];
  scenario: Record<string, unknown> | null;
  simulation: Record<string, unknown> | null;
  /** Where "show me in the simulation" lands: a section and a figure of the page (docs/quiz.md). */
  show: { section: string; figure: string; moment?: string; answer_drawn?: boolean } | null;
  expected: number | null;
  expected_display: string;
  unit: string;
  /** The unit as the widget's language names it in a sentence ("days", "Tage", "días"). */
  unit_name: string;
  unit_kind: string;
  tolerance: number | null;
  tolerance_factor: number | null;
  errors: BankProblem[];
}

export type GradeStatus = 'correct' | 'incorrect' | 'not_a_number' | 'wrong_unit' | 'no_answer' | 'invalid_item';

/** quizGrade's answer. */
export interface QuizGrade {
  status: GradeStatus;
  counts_as_attempt: boolean;
  message: string;
  misconception: string | null;
  expected: number | null;
  expected_display: string;
  answer_value: number | null;
  answer_display: string;
  explanation: string;
  options: { id: string; selected: boolean; correct: boolean; feedback: string }[];
  errors: BankProblem[];
}

/** quizReadQuantity's answer. */
export interface QuantityReading {
  ok: boolean;
  value: number | null;
  unit_kind: string;
  has_unit: boolean;
  display: string;
  error: string;
}

/** The grade of a learner's answer: typed text, or option ids. */
type QuizAnswer = { text: string } | { choices: string[] } | Record<string, never>;

/** The quiz's engine calls, typed: each answer read once, and null when the engine's text cannot be read. */
export interface QuizCalls {
  instance(itemJson: string, seed: number): QuizInstance | null;
  grade(itemJson: string, seed: number, answer: QuizAnswer): QuizGrade | null;
  validateBank(bankJson: string): { errors?: unknown; unusable?: unknown; settings?: unknown; draws_numbers?: unknown } | null;
  /** Typed text as the grader reads it for a question in `unit` (its spelling; "" a plain number). */
  readQuantity(text: string, unit: string): QuantityReading | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses engine output; a throw or unreadable text becomes null (the caller reports it). */
function read<T>(call: () => string): T | null {
  try {
    const parsed: unknown = JSON.parse(call());
    return isRecord(parsed) ? (parsed as T) : null;
  } catch {
    return null;
  }
}

export function quizCalls(engine: QuizEngine): QuizCalls {
  return {
    instance: (itemJson, seed) => read<QuizInstance>(() => engine.quizInstance(itemJson, seed)),
    grade: (itemJson, seed, answer) => read<QuizGrade>(() => engine.quizGrade(itemJson, seed, JSON.stringify(answer))),
    validateBank: (bankJson) => read(() => engine.quizValidateBank(bankJson)),
    readQuantity: (text, unit) => read<QuantityReading>(() => engine.quizReadQuantity(text, unit)),
  };
}
