// Mounting the widget: the stylesheet, the first view's handover, the engine and the language
// pack loaded side by side, then the widget (widget.ts) built in its own task. The options and the
// handle hosts use (docs/embedding.md) are defined here.

import { h, replace } from '../dom/dom';
import { engineFor, loadEngine, type Engine } from '../engine/engine';
import { FIRST_VIEW_ATTRIBUTE, refusesFirstView } from '../first-view/first-view';
import { chooseLanguage, DIRECTIONS, ENGLISH } from '../i18n/i18n';
import { widgetLanguage } from '../i18n/packs';
import { nextTask } from './lazy';
import { adoptStyles } from './styles';
import type { MountOptions, TrainscopeHandle } from './options';
import { Widget } from './widget';

export { documentHasStyles } from './styles';
export { type MountOptions, type Section, type Theme, type TrainscopeHandle } from './options';
export { DEFAULT_SECTIONS } from './parts-plan';

/** The tag a root's language comes from: the nearest [lang] at or above it (through a shadow root's host), else <html lang>. */
function inheritedLanguageTag(root: HTMLElement | ShadowRoot): string | null {
  const element = root instanceof ShadowRoot ? root.host : root;
  const marked = element.closest('[lang]');
  return marked ? marked.getAttribute('lang') : document.documentElement.getAttribute('lang');
}

/**
 * The page's first view, if it has one: dist/index.html and the offline file carry the default
 * scenario's opening sections as the widget drew them at build time (first-view.ts, docs/page.md),
 * so a figure is on screen before the engine's script has run. It is inert and gives way to the
 * widget once that is built. A link that opens something else (a hash, ?lang=) must not show the
 * default first: the head's guard hides it before it paints, and here it goes at once.
 */
function takeFirstView(root: HTMLElement | ShadowRoot): HTMLElement | null {
  const firstView = root.querySelector<HTMLElement>(`:scope > [${FIRST_VIEW_ATTRIBUTE}]`);
  // The guard hid it already (or a host's own policy refused the guard): either way it goes now.
  if (firstView && refusesFirstView(window.location)) {
    firstView.remove();
    return null;
  }
  return firstView;
}

export async function mountTrainscope(root: HTMLElement | ShadowRoot, options: MountOptions = {}): Promise<TrainscopeHandle> {
  const styled = options.injectStyles !== false ? adoptStyles(root) : Promise.resolve();
  const tag = options.language ?? inheritedLanguageTag(root);
  const chosen = chooseLanguage(tag);
  if (chosen.refused !== null) console.warn(`trainscope: no words for the language “${chosen.refused}”; showing English.`);
  // In another language the loading line waits for its words (English has them at once): no English flashes first.
  const loadingLine = h('p', { className: 'ts-loading' });
  const container = h('div', { className: 'ts-root', 'aria-busy': 'true', 'data-theme': options.theme ?? 'auto' }, loadingLine);
  const firstView = takeFirstView(root);
  // The first view stays on screen while the widget builds out of sight, then gives way in one frame.
  container.hidden = firstView !== null;
  root.appendChild(container);
  const showWidget = () => {
    firstView?.remove();
    container.hidden = false;
  };
  // The engine loads while the language pack does; its failure is reported below, in the widget's words.
  const sharedEngine = loadEngine();
  sharedEngine.catch(() => undefined);
  const words = chosen.language === 'en' ? ENGLISH : await widgetLanguage(chosen.language);
  container.setAttribute('lang', words.language);
  container.setAttribute('dir', DIRECTIONS[words.language]);
  const { t } = words;
  loadingLine.textContent = t('page.loading', 'Loading the trainscope engine…');
  let engine: Engine;
  try {
    const shared = await sharedEngine;
    engine = engineFor(shared, words);
  } catch (error) {
    showWidget();
    replace(
      container,
      h(
        'p',
        { className: 'ts-notice ts-notice-error', role: 'alert' },
        t('page.engine_failed', 'The simulation engine could not start ({reason}). The page needs WebAssembly.', {
          reason: error instanceof Error ? error.message : String(error),
        }),
      ),
    );
    throw error;
  }
  // Each widget builds in its own task, so one page's several widgets paint one by one.
  await styled;
  await nextTask();
  const languageProblem = options.languageProblem ?? words.packProblem ?? null;
  const widget = new Widget(engine, container, languageProblem ? { ...options, languageProblem } : options, words);
  showWidget();
  container.removeAttribute('aria-busy');
  container.setAttribute('data-ts-ready', 'true');
  // The first computed figure is on screen: a mark for benchmarks (bench/page_bench.mjs) and tools.
  performance.mark?.('trainscope-first-figure');
  return widget.handle();
}
