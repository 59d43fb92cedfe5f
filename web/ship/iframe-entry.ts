// dist/iframe/: the widget as a page meant for an <iframe>. It reads its settings from the query
// string (the element's attribute names: ?preset=…&sections=…&theme=…&pass-mark=…&scenario=…&header=on&bank=…),
// reports its height and quiz scores to the host page (iframe-host.js), and keeps no URL state.
import { documentHasStyles, mountTrainscope } from '../src/app';
import { emitXapi } from './xapi';
import { loadEngine } from '../src/engine';
import { checkScenario, readSettings } from './settings';
import { reportToHost } from './iframe-child';
import { loadAuthorBank } from '../src/quiz/source';

async function start(): Promise<void> {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const query = new URLSearchParams(window.location.search);
  const read = readSettings({
    preset: query.get('preset'),
    scenario: query.get('scenario'),
    sections: query.get('sections'),
    theme: query.get('theme'),
    passMark: query.get('pass-mark'),
    header: query.get('header'),
    bank: query.get('bank'),
  });
  reportToHost(target);
  // The engine checks the preset and scenario first; if it cannot load, mountTrainscope says why.
  // ?bank= names a file on the iframe page's own site (docs/quiz.md, "Your own bank").
  const [engine, quizBank] = await Promise.all([loadEngine().catch(() => null), read.sections.includes('quiz') ? loadAuthorBank({ url: read.bank, inline: null }, window.location.href) : null]);
  const settings = engine ? checkScenario(read, (scenario) => engine.estimate(scenario)) : read;
  for (const problem of settings.problems) console.warn(`trainscope iframe: ${problem}`);
  void mountTrainscope(target, {
    xapi: emitXapi,
    scenario: settings.scenario,
    syncHash: false,
    injectStyles: !documentHasStyles(),
    sections: settings.sections,
    theme: settings.theme,
    passMark: settings.passMark ?? undefined,
    problems: settings.problems,
    header: settings.header,
    instanceKey: query.get('id') ?? undefined,
    quizBank,
  }).catch(() => {
    // mountTrainscope has already shown its message in the frame.
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();
