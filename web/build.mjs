// Builds the page: dist/index.html + dist/trainscope.js (one classic script holding the
// engine's wasm as base64 and the stylesheet as text) + dist/trainscope.css (the same
// stylesheet, for hosts that prefer a <link>). `--units` instead compiles the pure modules
// that the unit tests import to build/web-units/.
//
// Usage: node web/build.mjs [--units] [--dev]
import { build, transform } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const webDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(webDir, '..');
const distDir = join(repoRoot, 'dist');
const wasmDir = process.env.TRAINSCOPE_WASM_DIR ? resolve(process.env.TRAINSCOPE_WASM_DIR) : join(repoRoot, 'build', 'wasm');
const gluePath = join(wasmDir, 'trainscope_engine.js');
const wasmPath = join(wasmDir, 'trainscope_engine.wasm');
const args = new Set(process.argv.slice(2));

/** Pure modules with unit tests in tests/web/ (no DOM, no engine). */
const unitModules = ['format', 'parse', 'hf-config', 'hash', 'scenario', 'sliders'];

async function buildUnits() {
  const outdir = join(repoRoot, 'build', 'web-units');
  await build({
    entryPoints: unitModules.map((name) => join(webDir, 'src', `${name}.ts`)),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'node20',
    logLevel: 'warning',
  });
  console.log(`web: unit modules → ${outdir}`);
}

/** Resolves the two virtual modules that engine.ts imports: the Emscripten glue and the wasm bytes. */
const enginePlugin = {
  name: 'trainscope-engine',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^trainscope:engine-(glue|wasm)$/ }, (resolveArgs) => ({
      path: resolveArgs.path,
      namespace: 'trainscope-engine',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'trainscope-engine' }, (loadArgs) => {
      if (loadArgs.path === 'trainscope:engine-wasm') {
        return { contents: `export default ${JSON.stringify(readFileSync(wasmPath).toString('base64'))};`, loader: 'js' };
      }
      // The glue is CommonJS-shaped (module.exports = createTrainscopeEngine) and also carries
      // node-only branches that require('fs') etc.; those modules are marked external below
      // and are never reached in a browser.
      return { contents: readFileSync(gluePath, 'utf8'), loader: 'js', resolveDir: wasmDir };
    });
    // Node built-ins named by the glue's node branch: leave them alone.
    pluginBuild.onResolve({ filter: /^(node:)?(fs|path|crypto|url|module|worker_threads|perf_hooks|child_process)$/ }, (resolveArgs) => ({
      path: resolveArgs.path,
      external: true,
    }));
  },
};

async function buildPage() {
  for (const required of [gluePath, wasmPath]) {
    if (!existsSync(required)) {
      console.error(`web: ${required} is missing. Build the engine first: bash scripts/build.sh (CMake preset "wasm").`);
      process.exit(1);
    }
  }
  mkdirSync(distDir, { recursive: true });
  const dev = args.has('--dev');
  const css = readFileSync(join(webDir, 'styles.css'), 'utf8');
  const minifiedCss = (await transform(css, { loader: 'css', minify: !dev })).code;
  writeFileSync(join(distDir, 'trainscope.css'), minifiedCss);

  const result = await build({
    entryPoints: [join(webDir, 'src', 'main.ts')],
    outfile: join(distDir, 'trainscope.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
    minify: !dev,
    sourcemap: false,
    legalComments: 'none',
    plugins: [enginePlugin],
    define: { TRAINSCOPE_CSS: JSON.stringify(minifiedCss) },
    logLevel: 'warning',
    metafile: true,
  });
  const html = readFileSync(join(webDir, 'index.html'), 'utf8');
  writeFileSync(join(distDir, 'index.html'), html);

  const sizes = ['index.html', 'trainscope.js', 'trainscope.css'].map((name) => {
    const bytes = readFileSync(join(distDir, name));
    return { name, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const pageGzip = sizes.filter((s) => s.name !== 'trainscope.css').reduce((sum, s) => sum + s.gzip, 0);
  for (const s of sizes) console.log(`web: dist/${s.name} ${(s.bytes / 1024).toFixed(1)} KiB (gzip ${(s.gzip / 1024).toFixed(1)} KiB)`);
  console.log(`web: page (index.html + trainscope.js, styles inside) gzip ${(pageGzip / 1024).toFixed(1)} KiB`);
  void result;
}

if (args.has('--units')) await buildUnits();
else await buildPage();
