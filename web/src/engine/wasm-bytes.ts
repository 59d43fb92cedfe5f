// The engine's .wasm travels inside the bundle as base64 of its gzip: a script cannot carry raw
// bytes, and base64 of the plain wasm compresses poorly (the served page would grow by ~20 KB
// gzipped). The browser's own DecompressionStream inflates it: no fetch, so file:// and a CSP
// without connect-src still work, and no inflater ships in the bundle.

/** Base64 text to bytes, natively where the browser can (Chromium 140+, Firefox 133+, Safari 18.2+). */
export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  if (typeof native === 'function') return native(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The wasm module as a Response streaming out of the bundle's base64-of-gzip, inflated as it is read. */
export function wasmResponseFromGzipBase64(gzipBase64: string): Response {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser lacks DecompressionStream, which Chrome 80, Firefox 113 and Safari 16.4 or newer have');
  }
  // A stream of the bytes themselves, not a Blob's: a Blob goes through the browser's blob store
  // (another process), which cost 10–30 ms more on a fresh page (bench/README.md, first figure).
  const compressed = decodeBase64(gzipBase64);
  const source = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(compressed);
      controller.close();
    },
  });
  const inflated = source.pipeThrough(new DecompressionStream('gzip'));
  return new Response(inflated, { headers: { 'content-type': 'application/wasm' } });
}

/** The wasm module's bytes from the bundle's base64-of-gzip. */
export async function wasmBytesFromGzipBase64(gzipBase64: string): Promise<Uint8Array> {
  return new Uint8Array(await wasmResponseFromGzipBase64(gzipBase64).arrayBuffer());
}

/**
 * Compiles and instantiates the module while it is being inflated: the browser compiles the
 * bytes that have arrived on other threads while the rest is still unpacking, where compiling
 * from the whole inflated buffer waited for the last byte first (bench/README.md, first figure).
 */
export async function instantiateFromGzipBase64(gzipBase64: string, imports: WebAssembly.Imports): Promise<WebAssembly.Instance> {
  const response = wasmResponseFromGzipBase64(gzipBase64);
  if (typeof WebAssembly.instantiateStreaming === 'function') return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}
