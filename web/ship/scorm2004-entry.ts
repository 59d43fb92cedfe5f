// The SCO inside dist/trainscope-scorm2004.zip: the widget, reporting to a SCORM 2004 LMS
// (score, completion, success, suspend data, location). Opened on its own it is the plain
// offline page (progress in localStorage where allowed).
import { documentHasStyles, mountTrainscope } from '../src/widget/mount';
import { queryLanguage } from '../src/i18n/packs';
import { emitXapi } from './xapi';
import type { AnswerDetail, ScoreDetail } from '../src/quiz/types';
import { findScorm2004Api, Scorm2004Session } from './scorm2004';

function start(): void {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const session = new Scorm2004Session(findScorm2004Api(window));
  const inLms = session.start();
  // The answer event comes right before its score event: it names the question for cmi.location.
  let answered: string | undefined;
  target.addEventListener('trainscope-answer', (event) => {
    answered = (event as CustomEvent<AnswerDetail>).detail?.itemId;
  });
  target.addEventListener('trainscope-score', (event) => {
    const detail = (event as CustomEvent<ScoreDetail>).detail;
    if (detail) session.report(detail, answered);
  });
  // pagehide fires on tab close, navigation and LMS frame teardown; unload does not always.
  window.addEventListener('pagehide', () => session.finish());
  void mountTrainscope(target, {
    xapi: emitXapi,
    language: queryLanguage(),
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
