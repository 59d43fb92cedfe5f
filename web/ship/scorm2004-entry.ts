// The SCO inside dist/trainscope-scorm2004.zip: the widget, reporting to a SCORM 2004 LMS
// (score, completion, success, suspend data, location). Opened on its own it is the plain
// offline page (progress in localStorage where allowed).
import { documentHasStyles, mountTrainscope } from '../src/widget/mount';
import { queryLanguage } from '../src/i18n/packs';
import { emitXapi } from './xapi';
import { findScorm2004Api, Scorm2004Session } from './scorm2004';
import { reportQuiz } from './sco-events';

function start(): void {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const session = new Scorm2004Session(findScorm2004Api(window));
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
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
