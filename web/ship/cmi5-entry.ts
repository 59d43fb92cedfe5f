// The AU inside dist/trainscope-cmi5.zip: the widget, launched by a cmi5 LMS with endpoint,
// fetch, actor, registration and activityId in its URL. It reports to that LMS's LRS only
// (web/ship/cmi5.ts). Opened without those parameters it is the plain offline page.
import { documentHasStyles, mountTrainscope } from '../src/widget/mount';
import { queryLanguage } from '../src/i18n/packs';
import type { ScoreDetail } from '../src/quiz/types';
import { Cmi5Session, readLaunch } from './cmi5';
import { emitXapi, XAPI_EVENT, type XapiStatement } from './xapi';

async function start(): Promise<void> {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const launch = readLaunch(location.search);
  const session = launch ? new Cmi5Session(launch) : null;
  const inLms = session ? await session.start() : false;
  // The statements follow the score event that caused them: keep its detail for their score.
  let lastScore: ScoreDetail | null = null;
  // Capture: the statements are dispatched while the score event bubbles, before it reaches target.
  target.addEventListener(
    'trainscope-score',
    (event) => {
      lastScore = (event as CustomEvent<ScoreDetail>).detail ?? null;
    },
    { capture: true },
  );
  target.addEventListener(XAPI_EVENT, (event) => {
    const statement = (event as CustomEvent<XapiStatement>).detail;
    if (statement && session) session.forward(statement, lastScore);
  });
  window.addEventListener('pagehide', () => {
    void session?.finish();
  });
  void mountTrainscope(target, {
    xapi: emitXapi,
    // ?lang= first, then the learner's languagePreference (cmi5 §11) when the widget has it, then the package's own.
    language: queryLanguage() ?? session?.preferredLanguage() ?? undefined,
    syncHash: !inLms,
    injectStyles: !documentHasStyles(),
    passMark: session?.passMark() ?? undefined,
    quizStorage: inLms && session ? session.quizStorage() : undefined,
    xapiActivity: inLms && launch ? launch.activityId : undefined,
  }).catch(() => {
    // mountTrainscope has already shown its message on the page.
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();
