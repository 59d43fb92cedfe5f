// For the element's script: the engine lives in trainscope-engine.js beside it, loaded with a
// <script> (allowed by a CSP's script-src 'self', where fetching a .wasm would need connect-src)
// the first time a widget needs it, that is when one comes near the viewport.
import type { EngineSource } from 'trainscope:engine-source';

/** Where the engine script sits: next to this script, wherever the host serves it from. */
const ENGINE_FILE = 'trainscope-engine.js';
const SOURCE_GLOBAL = '__trainscopeEngineSource';
// Read while this script runs: document.currentScript is null once it has finished.
const scriptUrl = (typeof document !== 'undefined' && (document.currentScript as HTMLScriptElement | null)?.src) || '';

type WithSource = typeof globalThis & { [SOURCE_GLOBAL]?: EngineSource };

export default function loadEngineSource(): Promise<EngineSource> {
  const ready = (globalThis as WithSource)[SOURCE_GLOBAL];
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL(ENGINE_FILE, scriptUrl || document.baseURI).href;
    script.async = true;
    script.addEventListener('load', () => {
      const source = (globalThis as WithSource)[SOURCE_GLOBAL];
      if (source) resolve(source);
      else reject(new Error(`${script.src} did not provide the engine`));
    });
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error(`could not load ${script.src}`));
    });
    document.head.appendChild(script);
  });
}
