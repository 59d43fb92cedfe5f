// dist/embed/trainscope-engine.js: the engine for <trainscope-widget>, loaded on demand by
// remote-source.ts. It only registers the factory and the wasm bytes; nothing runs yet.
import createTrainscopeEngine from 'trainscope:engine-glue';
import wasmGzipBase64 from 'trainscope:engine-wasm';

(globalThis as Record<string, unknown>).__trainscopeEngineSource = { createTrainscopeEngine, wasmGzipBase64 };
