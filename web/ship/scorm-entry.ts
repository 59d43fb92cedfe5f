// The SCO inside dist/trainscope-scorm12.zip: the widget, reporting to the LMS. In an LMS it
// keeps quiz progress in cmi.suspend_data and reports the score and status; opened on its own
// it is the plain offline page (progress in localStorage where allowed).
import { documentHasStyles, mountTrainscope } from '../src/widget/mount';
import { queryLanguage } from '../src/i18n/packs';
import { emitXapi } from './xapi';
import { findScormApi, ScormSession } from './scorm';
import { reportQuiz } from './sco-events';

function start(): void {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const session = new ScormSession(findScormApi(window));
  const inLms = session.start();
  const passMark = session.passMark();
  reportQuiz(target, session);
  // pagehide fires on tab close, navigation and LMS frame teardown; unload does not always.
  window.addEventListener('pagehide', () => session.finish());
  void mountTrainscope(target, {
    xapi: emitXapi,
    // ?lang= first, then the LMS's language preference when the widget has it, then the package's own.
    language: queryLanguage() ?? session.preferredLanguage() ?? undefined,
    syncHash: !inLms,
    injectStyles: !documentHasStyles(),
    passMark: passMark ?? undefined,
    quizStorage: inLms ? session.quizStorage() : undefined,
  }).catch(() => {
    // mountTrainscope has already shown its message on the page.
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
