// dist/iframe/: the widget as a page meant for an <iframe>. It reads its settings from the query
// string (the element's attribute names: ?preset=…&sections=…&theme=…&pass-mark=…&scenario=…),
// reports its height and quiz scores to the host page (iframe-host.js), and keeps no URL state.
import { documentHasStyles, mountTrainscope } from '../src/app';
import { readSettings } from './settings';
import { reportToHost } from './iframe-child';

function start(): void {
  const target = document.querySelector<HTMLElement>('[data-trainscope]');
  if (!target) return;
  const query = new URLSearchParams(window.location.search);
  const settings = readSettings({
    preset: query.get('preset'),
    scenario: query.get('scenario'),
    sections: query.get('sections'),
    theme: query.get('theme'),
    passMark: query.get('pass-mark'),
  });
  reportToHost(target);
  void mountTrainscope(target, {
    scenario: settings.scenario,
    syncHash: false,
    injectStyles: !documentHasStyles(),
    sections: settings.sections,
    theme: settings.theme,
    passMark: settings.passMark ?? undefined,
    problems: settings.problems,
    instanceKey: query.get('id') ?? undefined,
  }).catch(() => {
    // mountTrainscope has already shown its message in the frame.
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
