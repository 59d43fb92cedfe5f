// dist/iframe/: the widget as a page meant for an <iframe>. It reads its settings from the query
// string (the element's attribute names: ?preset=…&sections=…&theme=…&pass-mark=…&scenario=…&header=on&bank=…&quiz=…&draw=…),
// reports its height and quiz scores to the host page (iframe-host.js), and keeps no URL state.
import { documentHasStyles, mountTrainscope } from '../src/widget/mount';
import { emitXapi } from './xapi';
import { engineFor, loadEngine } from '../src/engine/engine';
import { chooseLanguage } from '../src/i18n/i18n';
import { widgetLanguage } from '../src/i18n/packs';
import { checkScenario, readSettings, settingsOptions } from './settings';
import { reportToHost } from './iframe-child';
import { loadAuthorBank } from '../src/quiz/source';

async function start(): Promise<void> {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const query = new URLSearchParams(window.location.search);
  // ?lang= (else the page's <html lang>): the words come first, so the settings' problems are in them.
  const chosen = chooseLanguage(query.get('lang') ?? document.documentElement.getAttribute('lang'));
  if (chosen.refused !== null) console.warn(`trainscope iframe: no words for the language “${chosen.refused}”; showing English.`);
  const words = await widgetLanguage(chosen.language);
  const read = readSettings(
    {
      preset: query.get('preset'),
      scenario: query.get('scenario'),
      sections: query.get('sections'),
      theme: query.get('theme'),
      passMark: query.get('pass-mark'),
      header: query.get('header'),
      bank: query.get('bank'),
      quiz: query.get('quiz'),
      draw: query.get('draw'),
      practiceCounts: query.get('practice-counts'),
    },
    words.t,
  );
  const report = reportToHost(target);
  // The engine checks the preset and scenario first; if it cannot load, mountTrainscope says why.
  // ?bank= names a file on the iframe page's own site (docs/quiz.md, "Your own bank").
  const [shared, quizBank] = await Promise.all([
    loadEngine().catch(() => null),
    read.sections.includes('quiz') ? loadAuthorBank({ url: read.bank, inline: null }, window.location.href) : null,
  ]);
  const engine = shared ? engineFor(shared, words) : null;
  const settings = engine ? checkScenario(read, (scenario) => engine.estimate(scenario), words.t) : read;
  for (const problem of settings.problems) console.warn(`trainscope iframe: ${problem}`);
  void mountTrainscope(target, {
    xapi: emitXapi,
    ...settingsOptions(settings),
    syncHash: false,
    injectStyles: !documentHasStyles(),
    instanceKey: query.get('id') ?? undefined,
    quizBank,
    language: words.language,
    languageProblem: words.packProblem,
  })
    .catch(() => {
      // mountTrainscope has already shown its message in the frame.
    })
    .finally(report.sendHeight);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();
