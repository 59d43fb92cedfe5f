// What the widget tells the learner besides the figures: the notice (a link's or the host's
// problems), the scenario's problems no control can show, and the engine's notes.

import { h, replace, setText } from '../dom/dom';
import type { FieldError } from '../engine/types';
import type { Translate } from '../i18n/i18n';

/** The first three problems as "field: message; …", and "and more" past them. */
export function describeErrors(t: Translate, errors: readonly FieldError[]): string {
  const shown = errors
    .slice(0, 3)
    .map((error) => `${error.field}: ${error.message}`)
    .join('; ');
  return errors.length > 3 ? t('page.errors_more', '{shown}; and more', { shown }) : shown;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class Notices {
  readonly notice: HTMLElement;
  readonly generalErrors: HTMLElement;
  readonly notes: HTMLElement;
  private notesShown = '';
  /** True while the notice shows the host's problems (not a link's), so that fixing them hides it. */
  private showsProblems = false;

  /** `standing`: problems that stay listed whatever the host's settings become (a language pack that failed). */
  constructor(
    private readonly t: Translate,
    private readonly standing: readonly string[] = [],
  ) {
    this.notice = h('div', { className: 'ts-notice', role: 'alert' });
    this.notice.hidden = true;
    this.generalErrors = h('ul', { className: 'ts-errors', 'aria-label': t('page.errors_label', 'Problems with the scenario') });
    this.generalErrors.hidden = true;
    this.notes = h('ul', { className: 'ts-notes', 'aria-label': t('page.notes_label', 'Notes from the engine') });
  }

  get noticeHidden(): boolean {
    return this.notice.hidden === true;
  }

  show(message: string, items: readonly string[] = []): void {
    replace(
      this.notice,
      h(
        'div',
        null,
        h('p', null, message),
        items.length > 0
          ? h(
              'ul',
              { className: 'ts-notice-list' },
              items.map((item) => h('li', null, item)),
            )
          : null,
      ),
      h(
        'button',
        { type: 'button', className: 'ts-button ts-button-quiet', onclick: () => this.hide() },
        this.t('page.dismiss', 'Dismiss'),
      ),
    );
    this.notice.hidden = false;
    this.showsProblems = false;
  }

  hide(): void {
    this.notice.hidden = true;
    this.showsProblems = false;
  }

  /** The host's problems with its own settings, one line per attribute, so each can be found (and fixed) on its own. */
  setProblems(hostProblems: readonly string[]): void {
    const problems = [...this.standing, ...hostProblems];
    if (problems.length > 0) {
      this.show(this.t('page.settings_problems', 'The widget uses its defaults for these settings:'), problems);
      this.showsProblems = true;
    } else if (this.showsProblems) {
      this.hide();
    }
  }

  /** Problems no control shows, listed under the model picker. */
  showGeneralErrors(errors: readonly FieldError[]): void {
    if (errors.length === 0) {
      this.clearGeneralErrors();
      return;
    }
    replace(
      this.generalErrors,
      errors.map((error) => h('li', null, h('code', null, error.field), ': ', error.message)),
    );
    this.generalErrors.hidden = false;
  }

  clearGeneralErrors(): void {
    if (this.generalErrors.hidden) return;
    this.generalErrors.hidden = true;
    this.generalErrors.replaceChildren();
  }

  /** A note's item: its label in the widget's language (not CSS-generated text, which no translation reaches), then the note. */
  private noteItem(): HTMLElement {
    return h('li', null, h('strong', { className: 'ts-note-label' }, this.t('page.note_label', 'Note:')), ' ', h('span'));
  }

  /** The engine's notes change with the scenario's kind, not on every step: redrawn only then. */
  renderNotes(notes: readonly string[]): void {
    const key = notes.join('\n');
    if (key === this.notesShown) return;
    this.notesShown = key;
    // The items on screen take the new words; only a longer or shorter list adds or drops one.
    notes.forEach((note, index) => {
      const item = this.notes.children[index] ?? this.notes.appendChild(this.noteItem());
      setText(item.lastElementChild as HTMLElement, note);
    });
    while (this.notes.children.length > notes.length) this.notes.lastElementChild?.remove();
    this.notes.hidden = notes.length === 0;
  }
}
