// A tiny static server for dist/ on 127.0.0.1 (no dependencies). Used by `npm run serve` and
// by the browser tests. Usage: node web/serve.mjs [port]   (port 0 or absent: any free port)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Serves `root` on 127.0.0.1:`port`; resolves to { server, url }.
 * options.headers: extra response headers for every file (e.g. a Content-Security-Policy);
 * options.extra: { '/path': { type, body } } served before the files (test host pages).
 */
export function serveDirectory(root, port = 0, options = {}) {
  const base = resolve(root);
  const extraHeaders = options.headers ?? {};
  const extra = options.extra ?? {};
  const server = createServer(async (request, response) => {
    try {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
      if (Object.hasOwn(extra, pathname)) {
        const { type, body } = extra[pathname];
        response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...extraHeaders });
        response.end(body);
        return;
      }
      let path = normalize(join(base, pathname));
      if (path !== base && !path.startsWith(base + sep)) {
        response.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(path).catch(() => null))?.isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...extraHeaders });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolvePromise({ server, url: `http://127.0.0.1:${address.port}/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const { url } = await serveDirectory(root, port);
  console.log(`trainscope: serving ${root} at ${url} (Ctrl-C to stop)`);
}
