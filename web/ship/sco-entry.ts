// What the SCO inside a SCORM package (scorm-entry.ts for 1.2, scorm2004-entry.ts for 2004) does
// once the page is loaded: opens its LMS session, reports the quiz to it and mounts the widget. In
// an LMS it keeps quiz progress in cmi.suspend_data; opened on its own it is the plain offline page
// (progress in localStorage where allowed).
import { documentHasStyles, mountTrainscope } from '../src/widget/mount';
import { queryLanguage } from '../src/i18n/packs';
import { emitXapi } from './xapi';
import type { ScoSession } from './sco';
import { reportQuiz } from './sco-events';

/** Starts the SCO when the document is ready, with the session `openSession()` makes then. */
export function runSco(openSession: () => ScoSession): void {
  const start = (): void => {
    const target = document.querySelector<HTMLElement>('[data-trainscope]');
    if (!target) return;
    const session = openSession();
    const inLms = session.start();
    reportQuiz(target, session);
    // pagehide fires on tab close, navigation and LMS frame teardown; unload does not always.
    window.addEventListener('pagehide', () => session.finish());
    void mountTrainscope(target, {
      xapi: emitXapi,
      // ?lang= first, then the LMS's language preference when the widget has it, then the package's own.
      language: queryLanguage() ?? session.preferredLanguage() ?? undefined,
      syncHash: !inLms,
      injectStyles: !documentHasStyles(),
      passMark: session.passMark() ?? undefined,
      quizStorage: inLms ? session.quizStorage() : undefined,
    }).catch(() => {
      // mountTrainscope has already shown its message on the page.
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}
