// The modules web/build.mjs provides at bundle time (see its enginePlugin). Ambient
// declarations live in their own file: a .d.ts with top-level exports would make them augmentations.

declare module 'trainscope:engine-glue' {
  /** Emscripten's MODULARIZE factory from build/wasm/trainscope_engine.js. */
  const createTrainscopeEngine: import('./engine-module').TrainscopeEngineFactory;
  export default createTrainscopeEngine;
}

declare module 'trainscope:engine-wasm' {
  /** build/wasm/trainscope_engine.wasm, gzipped then base64-encoded (web/src/engine/wasm-bytes.ts). */
  const wasmGzipBase64: string;
  export default wasmGzipBase64;
}

declare module 'trainscope:engine-source' {
  /** The engine's factory and bytes: bundled in, or loaded from a sibling script (the element). */
  export interface EngineSource {
    createTrainscopeEngine: import('./engine-module').TrainscopeEngineFactory;
    wasmGzipBase64: string;
  }
  const loadEngineSource: () => Promise<EngineSource>;
  export default loadEngineSource;
}
