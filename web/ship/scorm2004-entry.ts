// The SCO inside dist/trainscope-scorm2004.zip: the widget, reporting to a SCORM 2004 LMS
// (score, completion, success, suspend data, location). Opened on its own it is the plain
// offline page (progress in localStorage where allowed).
import { documentHasStyles, mountTrainscope } from '../src/app';
import type { ScoreEventDetail } from '../src/quiz/types';
import { findScorm2004Api, Scorm2004Session } from './scorm2004';

function start(): void {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const session = new Scorm2004Session(findScorm2004Api(window));
  const inLms = session.start();
  target.addEventListener('trainscope-score', (event) => {
    const detail = (event as CustomEvent<ScoreEventDetail>).detail;
    if (detail) session.report(detail, detail.answer?.itemId);
  });
  // pagehide fires on tab close, navigation and LMS frame teardown; unload does not always.
  window.addEventListener('pagehide', () => session.finish());
  void mountTrainscope(target, {
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
