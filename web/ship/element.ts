// <trainscope-widget>: the whole widget as one custom element for course pages.
//
//   <script src="trainscope-widget.js"></script>
//   <trainscope-widget preset="llama3-405b" sections="memory time quiz" theme="auto" pass-mark="0.7">
//   </trainscope-widget>
//   <trainscope-widget bank="my-bank.json"></trainscope-widget>   (the author's own questions)
//   <trainscope-widget sections="quiz" quiz="deeper" draw="5"></trainscope-widget>   (which questions, how many)
//
// Styles live in the element's shadow root, so the host's CSS cannot break it and its CSS cannot
// leak out. The engine starts only when the element comes near the viewport. Each bad attribute
// value produces one line in a notice inside the widget and one console warning, both naming the
// attribute; a later good value clears it. Nothing throws.

import { mountTrainscope, type MountOptions, type TrainscopeHandle } from '../src/widget/mount';
import { emitXapi } from './xapi';
import { engineFor, loadEngine, type Engine } from '../src/engine/engine';
import { chooseLanguage, ENGLISH, type Language, type WidgetLanguage } from '../src/i18n/i18n';
import { widgetLanguage } from '../src/i18n/packs';
import { loadAuthorBank, type AuthorBank } from '../src/quiz/source';
import { checkScenario, readSettings, settingsOptions, type ElementSettings } from './settings';

/** Start the engine a little before the widget scrolls into view, so it is ready when seen. */
const NEAR_VIEWPORT_MARGIN = '300px 0px';

/** The element's own box, before the widget's stylesheet arrives (constructed: CSP-safe). */
const HOST_CSS = `:host { display: block; contain: content; }
:host([hidden]) { display: none; }
.ts-element-placeholder { min-height: 12rem; display: grid; place-items: center; margin: 0;
  padding: 1rem; border: 1px dashed color-mix(in srgb, currentColor 30%, transparent); border-radius: 8px;
  font: inherit; color: inherit; opacity: 0.75; text-align: center; }`;

function adoptHostStyles(shadow: ShadowRoot): void {
  if (!('adoptedStyleSheets' in shadow) || typeof CSSStyleSheet !== 'function') return;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(HOST_CSS);
    shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
  } catch {
    // Older engines: the placeholder is unstyled, the widget still works.
  }
}

export class TrainscopeWidgetElement extends HTMLElement {
  static readonly observedAttributes = [
    'preset',
    'scenario',
    'sections',
    'theme',
    'pass-mark',
    'header',
    'bank',
    'lang',
    'quiz',
    'draw',
    'practice-counts',
  ];

  private readonly shadow: ShadowRoot;
  private readonly frame: HTMLDivElement;
  private handle: TrainscopeHandle | null = null;
  private mounting = false;
  /** Attributes changed while a mount was under way, applied in order once it ends. */
  private pendingChanges: string[] = [];
  private observer: IntersectionObserver | null = null;
  /** The problems the console has already been told about: each is warned once, not per change. */
  private warned = new Set<string>();
  /** Languages without words the console has been told about (once each). */
  private readonly refusedLanguages = new Set<string>();
  /** The widget's language and words, as the last mount (or the wait for one) chose them. */
  private words: WidgetLanguage = ENGLISH;

  constructor() {
    super();
    this.shadow = this.attachShadow({ mode: 'open' });
    adoptHostStyles(this.shadow);
    this.frame = document.createElement('div');
    this.frame.className = 'ts-element';
    this.shadow.appendChild(this.frame);
  }

  private placeholder(text: string): HTMLParagraphElement {
    const placeholder = document.createElement('p');
    placeholder.className = 'ts-element-placeholder';
    placeholder.textContent = text;
    return placeholder;
  }

  /** The language asked for: the element's lang, else the nearest lang above it, else <html lang> (docs/i18n.md). */
  private language(): Language {
    const marked = this.closest('[lang]');
    const chosen = chooseLanguage(marked ? marked.getAttribute('lang') : document.documentElement.getAttribute('lang'));
    if (chosen.refused !== null && !this.refusedLanguages.has(chosen.refused)) {
      this.refusedLanguages.add(chosen.refused);
      console.warn(`<trainscope-widget>: no words for the language “${chosen.refused}”; showing English.`);
    }
    return chosen.language;
  }

  /** The widget's words: English at once; another language once its pack is in (English if it fails). */
  private async loadWords(): Promise<WidgetLanguage> {
    const language = this.language();
    this.words = language === 'en' ? ENGLISH : await widgetLanguage(language);
    return this.words;
  }

  connectedCallback(): void {
    if (!this.handle && !this.mounting && !this.frame.firstChild) {
      // The waiting line in the widget's language; in another language the box stays empty until its words are in.
      const waiting = this.placeholder('');
      this.frame.appendChild(waiting);
      void this.loadWords().then(({ t }) => {
        if (waiting.isConnected)
          waiting.textContent = t('page.element.waiting', 'The training-vs-running simulation loads when you scroll to it.');
      });
    }
    if (this.handle || this.mounting || this.observer) return;
    if (typeof IntersectionObserver !== 'function') {
      void this.mount();
      return;
    }
    this.observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          this.observer?.disconnect();
          this.observer = null;
          void this.mount();
        }
      },
      { rootMargin: NEAR_VIEWPORT_MARGIN },
    );
    this.observer.observe(this);
  }

  disconnectedCallback(): void {
    this.observer?.disconnect();
    this.observer = null;
  }

  attributeChangedCallback(name: string, previous: string | null, next: string | null): void {
    if (previous === next) return;
    if (this.mounting) {
      // The mount read the attributes before this change: apply it when the mount is done.
      this.pendingChanges.push(name);
      return;
    }
    if (!this.handle) return; // Not mounted yet: the mount reads every attribute as it is then.
    this.applyChange(name);
  }

  private applyChange(name: string): void {
    if (!this.handle) return;
    if (['sections', 'pass-mark', 'header', 'bank', 'lang', 'quiz', 'draw', 'practice-counts'].includes(name)) {
      // Which parts exist, and how the quiz grades, are fixed at mount: build the widget again.
      this.handle.destroy();
      this.handle = null;
      void this.mount();
      return;
    }
    const settings = this.checked(this.readAttributes(), this.handle.engine);
    this.handle.element.dataset.theme = settings.theme;
    if (name === 'preset' || name === 'scenario') this.handle.setScenario(settings.scenario);
    this.handle.setProblems(settings.problems);
  }

  /** The mounted widget, for hosts that script it; null until it has loaded. */
  get widget(): TrainscopeHandle | null {
    return this.handle;
  }

  /**
   * Which quiz progress this widget keeps: its id's own, else the bank's, shared (and merged
   * item by item) with every id-less widget of the origin. Never the widget's position: adding
   * a widget to a page must not move anyone's progress (docs/quiz.md).
   */
  private instanceKey(): string | undefined {
    return this.id || undefined;
  }

  private readAttributes(): ElementSettings {
    return readSettings(
      {
        preset: this.getAttribute('preset'),
        scenario: this.getAttribute('scenario'),
        sections: this.getAttribute('sections'),
        theme: this.getAttribute('theme'),
        passMark: this.getAttribute('pass-mark'),
        header: this.getAttribute('header'),
        bank: this.getAttribute('bank'),
        quiz: this.getAttribute('quiz'),
        draw: this.getAttribute('draw'),
        practiceCounts: this.getAttribute('practice-counts'),
      },
      this.words.t,
    );
  }

  /** The author's bank: the `bank` attribute's file, else a <script type="application/json"> child. */
  private async authorBank(settings: ElementSettings): Promise<AuthorBank | null> {
    // A widget without its quiz has no use for a bank: nothing is fetched.
    if (!settings.sections.includes('quiz')) return null;
    // With a script that is not deferred the element can start before the parser has reached
    // its children: wait for them.
    if (document.readyState === 'loading') await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }));
    // A script child of a custom element is inert (its type is not JavaScript) and unrendered
    // (the shadow root has no slot): a bank that travels with the page, under any CSP.
    const script = this.querySelector<HTMLScriptElement>(':scope > script[type="application/json"]');
    return loadAuthorBank({ url: settings.bank, inline: script ? (script.textContent ?? '') : null }, document.baseURI);
  }

  /** The settings with their scenario checked by the engine (when it loaded); warns of new problems. */
  private checked(read: ElementSettings, engine: Engine | null): ElementSettings {
    const settings = engine ? checkScenario(read, (scenario) => engine.estimate(scenario), this.words.t) : read;
    for (const problem of settings.problems) {
      if (!this.warned.has(problem)) console.warn(`<trainscope-widget>: ${problem}`);
    }
    this.warned = new Set(settings.problems);
    return settings;
  }

  private async mount(): Promise<void> {
    this.mounting = true;
    const loading = this.placeholder('');
    this.frame.replaceChildren(loading);
    // The words first (nothing but English is shown before them), then the settings in them.
    const words = await this.loadWords();
    loading.textContent = words.t('page.loading', 'Loading the trainscope engine…');
    const read = this.readAttributes();
    // The engine checks the preset and scenario before the widget starts from them. If it cannot
    // load, mountTrainscope tries again and shows why in the widget.
    const [shared, quizBank] = await Promise.all([loadEngine().catch(() => null), this.authorBank(read)]);
    const engine = shared ? engineFor(shared, words) : null;
    const settings = this.checked(read, engine);
    this.frame.replaceChildren();
    const options: MountOptions = {
      xapi: emitXapi,
      ...settingsOptions(settings),
      syncHash: false,
      injectStyles: true,
      instanceKey: this.instanceKey(),
      quizBank,
      // A course page has its own h1; the widget's title sits under it.
      headingLevel: 2,
      language: words.language,
      languageProblem: words.packProblem,
    };
    try {
      this.handle = await mountTrainscope(this.frame, options);
    } catch (error) {
      // mountTrainscope has already put a message in the frame; keep the host page's console readable.
      console.warn('<trainscope-widget> could not start:', error);
    } finally {
      this.mounting = false;
    }
    this.applyPendingChanges();
  }

  /** Replays, in order, what changed during the mount; a rebuild makes the rest moot. */
  private applyPendingChanges(): void {
    const changes = this.pendingChanges;
    this.pendingChanges = [];
    if (changes.length === 0) return;
    if (!this.handle) {
      // The mount failed: try again with the attributes as they are now.
      if (this.isConnected) void this.mount();
      return;
    }
    for (const name of changes) {
      this.applyChange(name);
      // A rebuild reads every attribute afresh: the changes after it are in it.
      if (this.mounting) return;
    }
  }
}

export function defineTrainscopeWidget(name = 'trainscope-widget'): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, TrainscopeWidgetElement);
}
