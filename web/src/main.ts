// The page's entry point (a classic script, so it runs from file:// too). It exposes
// mountTrainscope for hosts and mounts the widget into every [data-trainscope] element.

import { reportToHost } from '../ship/iframe-child';
import { documentHasStyles, mountTrainscope, type MountOptions, type TrainscopeHandle } from './widget/mount';
import { queryLanguage } from './i18n/packs';

declare global {
  interface Window {
    mountTrainscope: typeof mountTrainscope;
    /** The handle of the first widget on the page (tests compare it with the engine). */
    trainscope?: TrainscopeHandle;
    trainscopeReady?: Promise<TrainscopeHandle | undefined>;
  }
}

window.mountTrainscope = mountTrainscope;

function autoMount(): Promise<TrainscopeHandle | undefined> {
  const targets = [...document.querySelectorAll<HTMLElement>('[data-trainscope]')];
  const mounts = targets.map((target, index) => {
    // The page carries trainscope.css itself (no flash of unstyled content); other hosts get it adopted.
    const options: MountOptions = {
      syncHash: index === 0 && target.dataset.trainscopeHash !== 'off',
      injectStyles: !documentHasStyles(),
      // ?lang= chooses the page's language (docs/i18n.md); without it, the nearest lang, then <html lang>.
      language: queryLanguage(),
    };
    // Framed by a host (an LMS page, a course site): tell it our height and pass quiz scores on.
    if (index === 0 && window.parent !== window) reportToHost(target);
    return mountTrainscope(target, options);
  });
  return Promise.all(mounts).then((handles) => {
    const first = handles[0];
    // The page speaks the widget's language: its lang and its title too (English touches nothing).
    if (first && first.language !== 'en') {
      document.documentElement.lang = first.language;
      document.title = first.t('page.document_title', 'Why training needs far more hardware than running a model · trainscope');
    }
    window.trainscope = handles[0];
    return handles[0];
  });
}

window.trainscopeReady =
  document.readyState === 'loading'
    ? new Promise((resolve, reject) => document.addEventListener('DOMContentLoaded', () => autoMount().then(resolve, reject)))
    : autoMount();

export { mountTrainscope };
