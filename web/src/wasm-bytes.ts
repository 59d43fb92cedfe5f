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

/** The wasm module's bytes from the bundle's base64-of-gzip. */
export async function wasmBytesFromGzipBase64(gzipBase64: string): Promise<Uint8Array> {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser lacks DecompressionStream, which Chrome 80, Firefox 113 and Safari 16.4 or newer have');
  }
  const compressed = new Blob([decodeBase64(gzipBase64)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}
