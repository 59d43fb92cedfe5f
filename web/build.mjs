// Builds every web output into dist/ (docs/embedding.md):
//   index.html + trainscope.js + trainscope.css   the page (one classic script holding the engine's
//                                                 wasm as base64 and the stylesheet as text);
//                                                 index.html opens with its first view, drawn by
//                                                 this build's widget (web/prerender.mjs)
//   trainscope.html                               the same page as one self-contained file
//   embed/trainscope-widget.js (+ trainscope-engine.js, loaded when a widget is near the viewport)
//                                                 <trainscope-widget> for course pages
//   embed/trainscope-iframe-host.js, iframe/      the iframe page and its auto-height host script
//   trainscope-scorm12.zip                        a SCORM 1.2 package
//   trainscope-scorm2004.zip, trainscope-cmi5.zip SCORM 2004 4th Edition and cmi5 packages
// `--units` instead compiles the pure modules that the unit tests import to build/web-units/.
//
// `--bank FILE` builds an author's question bank (docs/quiz.md) into every output in place of
// web/quiz/bank.json: the page, the offline file, the embeds' built-in bank and the SCORM package.
//
// Language packs (docs/i18n.md): i18n/<lang>/page*.json, engine*.json and bank.json become
// dist/i18n/<lang>.json = {"page": …, "engine": …, "bank": …} (copies beside the element's and
// the iframe's scripts, which fetch them from beside themselves); the offline file and the LMS
// packages carry every pack inline. `--lang de` makes German the language the offline file and
// the LMS packages open in (their <html lang>).
//
// Usage: node web/build.mjs [--units] [--dev] [--bank FILE] [--lang LANG]
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createZip } from './ship/zip.mjs';
import { prerenderFirstView, withFirstView } from './prerender.mjs';

/** web/src/first-view/first-view.ts's attribute on the first view's root (read there by the widget, here by the build). */
const FIRST_VIEW_ATTRIBUTE = 'data-ts-first-view';

const webDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(webDir, '..');
// TRAINSCOPE_DIST_DIR: build elsewhere (a test's own --bank build, beside the shared dist/).
const distDir = process.env.TRAINSCOPE_DIST_DIR ? resolve(process.env.TRAINSCOPE_DIST_DIR) : join(repoRoot, 'dist');
const wasmDir = process.env.TRAINSCOPE_WASM_DIR ? resolve(process.env.TRAINSCOPE_WASM_DIR) : join(repoRoot, 'build', 'wasm');
const gluePath = join(wasmDir, 'trainscope_engine.js');
const wasmPath = join(wasmDir, 'trainscope_engine.wasm');
const argv = process.argv.slice(2);
const args = new Set(argv);
const bankFlag = argv.findIndex((arg) => arg === '--bank' || arg.startsWith('--bank='));
/** The author's bank file (--bank FILE), or null for web/quiz/bank.json. */
const authorBankPath = bankFlag < 0 ? null
  : argv[bankFlag].startsWith('--bank=') ? resolve(argv[bankFlag].slice('--bank='.length)) : argv[bankFlag + 1] ? resolve(argv[bankFlag + 1]) : '';
const langFlag = argv.findIndex((arg) => arg === '--lang' || arg.startsWith('--lang='));
/** The language the offline file and the LMS packages open in (--lang), English by default. */
const defaultLanguage = langFlag < 0 ? 'en' : argv[langFlag].startsWith('--lang=') ? argv[langFlag].slice('--lang='.length) : argv[langFlag + 1] ?? '';
/** The languages besides English (web/src/i18n/i18n.ts's list): one pack each. */
export const PACK_LANGUAGES = ['de', 'es'];
const i18nDir = join(repoRoot, 'i18n');
/** Concatenated into the one stylesheet that the page links and that shadow roots adopt. */
const stylesheets = ['styles.css', 'quiz.css'];

/** DOM-free modules with unit tests in tests/web/ (units.ts is bound to the real wasm engine there), each
 *  built to build/web-units/<its file name>.mjs wherever its folder is. */
const unitModules = [
  'engine/units', 'engine/hf-config', 'widget/hash', 'engine/scenario', 'controls/sliders', 'engine/wasm-bytes',
  'engine/step-timeline', 'widget/recent', 'engine/view', 'widget/scenario-rules', 'widget/parts-plan', 'sections/shown-controls',
  'figures/term-match', 'engine/glossary',
];

/** Compiles DOM-free modules (paths under web/`folder`, without .ts) to ES modules that node's test runner can import. */
export async function buildUnitModules(folder, names, outdir, plugins = []) {
  await build({
    entryPoints: names.map((name) => ({ in: join(webDir, folder, `${name}.ts`), out: name.split('/').pop() })),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'node20',
    plugins,
    logLevel: 'warning',
  });
}

async function buildUnits() {
  const outdir = join(repoRoot, 'build', 'web-units');
  await buildUnitModules('src', unitModules, outdir);
  // The shipping code's pure parts: embed settings, the SCORM session.
  await buildUnitModules('ship', ['settings', 'scorm', 'scorm2004', 'xapi', 'cmi5', 'report'], join(outdir, 'ship'));
  console.log(`web: unit modules → ${outdir}`);
}

/**
 * Gzip as the browser's DecompressionStream reads it, packed harder than zlib's level 9: zopfli
 * spends seconds searching for shorter matches. On the engine it saves ~5 KB (89.4 → 84.3 KB),
 * and so does every download of the page. Build time only; the page inflates it as any gzip.
 */
export async function gzipSmallest(bytes) {
  const { gzipAsync } = await import('@gfx/zopfli');
  return Buffer.from(await gzipAsync(bytes, { numiterations: 15 }));
}

/** The engine's .wasm packed once per build, shared by every bundle that carries it. */
let packedEnginePromise = null;
function packedEngine() {
  packedEnginePromise ??= gzipSmallest(readFileSync(wasmPath));
  return packedEnginePromise;
}

/**
 * esbuild plugin for the engine's virtual modules (web/src/engine/virtual-modules.d.ts):
 *   trainscope:engine-glue    Emscripten's factory (build/wasm/trainscope_engine.js)
 *   trainscope:engine-wasm    the .wasm bytes, gzipped (gzipSmallest), then base64 (web/src/engine/wasm-bytes.ts)
 *   trainscope:engine-source  what engine.ts awaits: the two above, bundled in ("inline"), or,
 *                             with `remote`, a loader for dist/embed/trainscope-engine.js beside
 *                             the script, fetched when a widget first comes near the viewport.
 */
export function enginePlugin({ remote = false } = {}) {
  return {
    name: 'trainscope-engine',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^trainscope:engine-(glue|wasm|source)$/ }, (resolveArgs) => ({
        path: resolveArgs.path,
        namespace: 'trainscope-engine',
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'trainscope-engine' }, (loadArgs) => {
        if (loadArgs.path === 'trainscope:engine-source') {
          const contents = remote
            ? "export { default } from './src/engine/remote-source.ts';"
            : "import createTrainscopeEngine from 'trainscope:engine-glue';\n"
              + "import wasmGzipBase64 from 'trainscope:engine-wasm';\n"
              + 'export default () => Promise.resolve({ createTrainscopeEngine, wasmGzipBase64 });';
          return { contents, loader: 'js', resolveDir: webDir };
        }
        if (loadArgs.path === 'trainscope:engine-wasm') {
          return packedEngine().then((gzipped) => ({ contents: `export default ${JSON.stringify(gzipped.toString('base64'))};`, loader: 'js' }));
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
}

/**
 * Swaps the built-in bank (web/quiz/bank.json, imported by src/widget/widget.ts) for the author's file.
 * The engine still validates it when the widget loads, and scripts/build.sh runs quiz-check first.
 */
export function bankPlugin(bankPath) {
  return {
    name: 'trainscope-bank',
    setup(pluginBuild) {
      if (!bankPath) return;
      pluginBuild.onResolve({ filter: /(^|\/)quiz\/bank\.json$/ }, () => ({ path: bankPath }));
    },
  };
}

/** Reads the --bank file once, so a missing or malformed one stops the build with its name. */
function checkAuthorBank() {
  if (authorBankPath === null) return;
  if (!authorBankPath) {
    console.error('web: --bank needs a file: node web/build.mjs --bank my-bank.json');
    process.exit(64);
  }
  let text;
  try {
    text = readFileSync(authorBankPath, 'utf8');
  } catch {
    console.error(`web: cannot read the question bank ${authorBankPath}`);
    process.exit(2);
  }
  try {
    JSON.parse(text);
  } catch (error) {
    console.error(`web: the question bank ${authorBankPath} is not valid JSON: ${error.message}`);
    process.exit(2);
  }
  console.log(`web: question bank ${authorBankPath}`);
}

/** A page key as the code writes it: t('memory.heading', … (docs/i18n.md: keys are plain literals). */
const PAGE_KEY_CALL = /(?<![A-Za-z0-9_$])t\(\s*'([a-z0-9_]+(?:\.[a-z0-9_]+)+)'\s*,/g;

function listSources(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Every page key the code uses, each with a short id ("1k") that takes its place in the bundles
 * and in the packs' "page" part: the dotted keys cost the English page about a kilobyte gzipped,
 * and it downloads no pack to need them. Sorted, so each build gives each key the same id.
 */
export function pageKeyIds() {
  const keys = new Set();
  for (const file of [...listSources(join(webDir, 'src')), ...listSources(join(webDir, 'ship'))]) {
    for (const match of readFileSync(file, 'utf8').matchAll(PAGE_KEY_CALL)) keys.add(match[1]);
  }
  return new Map([...keys].sort().map((key, index) => [key, index.toString(36)]));
}

/** esbuild plugin: each t('key', …) of the page's code becomes t('<short id>', …). */
export function pageKeysPlugin(ids) {
  return {
    name: 'trainscope-page-keys',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]web[\\/](src|ship)[\\/].*\.ts$/ }, (loadArgs) => {
        const source = readFileSync(loadArgs.path, 'utf8');
        const contents = source.replace(PAGE_KEY_CALL, (call, key) => call.replace(`'${key}'`, `'${ids.get(key) ?? key}'`));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** One part of a language: its catalogue files (i18n/<lang>/page*.json …) merged; none → {}. */
function readCatalogues(language, prefix) {
  const folder = join(i18nDir, language);
  if (!existsSync(folder)) return {};
  const merged = {};
  for (const name of readdirSync(folder).filter((file) => file.startsWith(prefix) && file.endsWith('.json')).sort()) {
    const path = join(folder, name);
    let value;
    try {
      value = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      console.error(`web: ${path} is not valid JSON: ${error.message}`);
      process.exit(2);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      console.error(`web: ${path} must be a JSON object of "key": "text"`);
      process.exit(2);
    }
    Object.assign(merged, value);
  }
  return merged;
}

/** Each language's pack: {"page": {short id: text}, "engine": {key: text}, "bank": {…}}; missing files give empty parts. */
export function languagePacks(ids) {
  const packs = {};
  for (const language of PACK_LANGUAGES) {
    const page = {};
    for (const [key, text] of Object.entries(readCatalogues(language, 'page'))) {
      // A key the code no longer uses has no id: left out (the catalogue test names it).
      if (ids.has(key)) page[ids.get(key)] = text;
    }
    const bankPath = join(i18nDir, language, 'bank.json');
    const bank = existsSync(bankPath) ? readCatalogues(language, 'bank.json') : {};
    packs[language] = { page, engine: readCatalogues(language, 'engine'), bank };
  }
  return packs;
}

/** One esbuild bundle: a classic script holding the engine (wasm as base64) and the styles. */
async function bundle(entry, outfile, css, dev, { remoteEngine = false } = {}) {
  await build({
    entryPoints: [join(webDir, entry)],
    outfile: join(distDir, outfile),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020', 'chrome90', 'firefox113', 'safari16.4'], // DecompressionStream (wasm-bytes.ts)
    minify: !dev,
    sourcemap: false,
    legalComments: 'none',
    plugins: [enginePlugin({ remote: remoteEngine }), bankPlugin(authorBankPath), pageKeysPlugin(pageKeys)],
    // The quiz bank ships inside the bundle: no fetch, so file:// and strict CSPs work.
    loader: { '.json': 'json' },
    define: { TRAINSCOPE_CSS: JSON.stringify(css) },
    logLevel: 'warning',
  });
  return readFileSync(join(distDir, outfile), 'utf8');
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Turns the page's HTML (external trainscope.js and trainscope.css) into one self-contained file:
 * the script and the stylesheet inline, and the CSP rewritten to allow exactly those two by hash,
 * so the single file keeps the same strict policy as the served page.
 */
export function inlinePage(html, script, css, { packs = null, language = 'en' } = {}) {
  // "</script" inside the script would end the element early; esbuild escapes it in strings, and
  // this check makes sure nothing else slipped through.
  if (/<\/script/i.test(script)) throw new Error('web: the bundle contains "</script" and cannot be inlined');
  // One file fetches nothing (its packs are inline): the served page's connect-src 'self' goes.
  const withCsp = html.replace(/ connect-src 'self';/, '').replace(/script-src 'self'/, `script-src ${sha256(script)}`).replace(/style-src 'self'/, `style-src ${sha256(css)}`);
  // The packs as data: a JSON script is never run, so the CSP needs nothing for it; "<" is
  // escaped so that no text in a translation can end the element.
  const packsElement = packs ? `<script type="application/json" id="trainscope-packs">${JSON.stringify(packs).replace(/</g, '\\u003c')}</script>\n` : '';
  return withCsp
    .replace(/<html lang="[^"]*">/, () => `<html lang="${language}">`)
    .replace(/<link rel="stylesheet" href="trainscope\.css">/, () => `<style data-trainscope-styles>${css}</style>`)
    .replace(/<script src="trainscope\.js"><\/script>/, () => `${packsElement}<script>${script}</script>`);
}

/**
 * The built page's first view and the head's guard that hides it for links (web/src/first-view/first-view.ts),
 * or null, with a warning, on a machine without Chromium: the page then opens without one.
 */
async function firstViewOf(pageFile) {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    console.warn(`web: no Chromium at ${executablePath} (scripts/setup.sh installs it): index.html is built without its first view`);
    return null;
  }
  const guardBuild = await build({
    entryPoints: [join(webDir, 'src', 'first-view', 'guard.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    write: false,
    logLevel: 'warning',
  });
  const guard = guardBuild.outputFiles[0].text.trim();
  const markup = await prerenderFirstView(pageFile, { attribute: FIRST_VIEW_ATTRIBUTE, executablePath });
  return { markup, guard, guardHash: sha256(guard) };
}

/** TRAINSCOPE_SCORM_MASTERY_SCORE (a whole percentage, 0–100) as a fraction, or null when unset or malformed. */
export function passingFraction(masteryScore) {
  return /^\d{1,3}$/.test(masteryScore ?? '') && Number(masteryScore) <= 100 ? String(Number(masteryScore) / 100) : null;
}

/** The SCORM 2004 manifest: the pass mark as the primary objective's minNormalizedMeasure (the LMS's cmi.scaled_passing_score), or no sequencing at all. */
export function scorm2004Manifest(template, masteryScore) {
  const passing = passingFraction(masteryScore);
  return passing !== null
    ? template.replace('{{SCALED_PASSING_SCORE}}', passing)
    : template.replace(/\s*<imsss:sequencing>[\s\S]*<\/imsss:sequencing>/, '');
}

/** cmi5.xml: with a pass mark, masteryScore and moveOn CompletedAndPassed; without, moveOn Completed. */
export function cmi5CourseStructure(template, masteryScore) {
  const passing = passingFraction(masteryScore);
  return template
    .replace('{{MOVE_ON}}', passing !== null ? 'CompletedAndPassed' : 'Completed')
    .replace('{{MASTERY_SCORE}}', passing !== null ? ` masteryScore="${passing}"` : '');
}

async function buildPage() {
  for (const required of [gluePath, wasmPath]) {
    if (!existsSync(required)) {
      console.error(`web: ${required} is missing. Build the engine first: bash scripts/build.sh (CMake preset "wasm").`);
      process.exit(1);
    }
  }
  checkAuthorBank();
  if (!['en', ...PACK_LANGUAGES].includes(defaultLanguage)) {
    console.error(`web: --lang must be one of en, ${PACK_LANGUAGES.join(', ')} (not "${defaultLanguage}")`);
    process.exit(64);
  }
  for (const folder of ['', 'embed', 'iframe']) mkdirSync(join(distDir, folder, 'i18n'), { recursive: true });
  // The packs beside each script that fetches them (the page, the element, the iframe page).
  const packs = languagePacks(pageKeys);
  for (const [language, pack] of Object.entries(packs)) {
    for (const folder of ['', 'embed', 'iframe']) writeFileSync(join(distDir, folder, 'i18n', `${language}.json`), JSON.stringify(pack));
  }
  const single = { packs, language: defaultLanguage };
  const dev = args.has('--dev');
  const css = (await transform(stylesheets.map((name) => readFileSync(join(webDir, name), 'utf8')).join('\n'),
    { loader: 'css', minify: !dev })).code;
  writeFileSync(join(distDir, 'trainscope.css'), css);
  const html = readFileSync(join(webDir, 'index.html'), 'utf8');

  // 1. The page, served: dist/index.html + trainscope.js + trainscope.css. Every page that runs this
  // script links or inlines the stylesheet, so the script carries no copy (app.ts, adoptStyles).
  const pageScript = await bundle('src/main.ts', 'trainscope.js', '', dev);
  writeFileSync(join(distDir, 'index.html'), html);
  // 2. Offline: one file to save and open from disk.
  writeFileSync(join(distDir, 'trainscope.html'), inlinePage(html, pageScript, css, single));
  // The first view (web/prerender.mjs): the built page draws its opening sections, which then
  // open both pages. The offline file in another language (--lang) opens without one.
  const firstView = await firstViewOf(join(distDir, 'index.html'));
  if (firstView) {
    const pageWithView = withFirstView(html, firstView.markup, firstView.guard, firstView.guardHash);
    writeFileSync(join(distDir, 'index.html'), pageWithView);
    if (defaultLanguage === 'en') writeFileSync(join(distDir, 'trainscope.html'), inlinePage(pageWithView, pageScript, css, single));
  }
  // 3. Course pages: the custom element (styles in its shadow root), and the iframe page with its host script.
  // The element's script carries no engine: it loads embed/trainscope-engine.js when needed.
  await bundle('ship/embed-entry.ts', 'embed/trainscope-widget.js', css, dev, { remoteEngine: true });
  await bundle('src/engine/remote-entry.ts', 'embed/trainscope-engine.js', css, dev);
  copyFileSync(join(webDir, 'ship', 'iframe-host.js'), join(distDir, 'embed', 'trainscope-iframe-host.js'));
  copyFileSync(join(webDir, 'ship', 'embed-example.html'), join(distDir, 'embed', 'example.html'));
  copyFileSync(join(webDir, 'ship', 'iframe-example.html'), join(distDir, 'iframe', 'example.html'));
  // The iframe page links its own copy of the stylesheet, beside its script.
  await bundle('ship/iframe-entry.ts', 'iframe/trainscope-iframe.js', '', dev);
  writeFileSync(join(distDir, 'iframe', 'trainscope.css'), css);
  writeFileSync(join(distDir, 'iframe', 'index.html'), html
    .replace('<script src="trainscope.js"></script>', '<script src="trainscope-iframe.js"></script>')
    .replace('class="ts-page"', 'class="ts-page ts-framed"')
    // ?bank= and the language packs are fetched from the iframe page's own site (index.html's connect-src 'self').
    // Frames get no favicon, and a data: icon would trip a host server's img-src policy.
    .replace(/<link rel="icon"[^>]*>\n?/, ''));
  // 4. Learning management systems: a SCORM 1.2 package with the widget as one self-contained SCO.
  // The packages' pages carry the stylesheet in a <style> too: their scripts need no copy.
  const scormScript = await bundle('ship/scorm-entry.ts', 'scorm-sco.js', '', dev);
  const masteryScore = process.env.TRAINSCOPE_SCORM_MASTERY_SCORE ?? '';
  let manifest = readFileSync(join(webDir, 'ship', 'imsmanifest.xml'), 'utf8');
  manifest = /^\d{1,3}$/.test(masteryScore) && Number(masteryScore) <= 100
    ? manifest.replace('{{MASTERY_SCORE}}', masteryScore)
    : manifest.replace(/\s*<adlcp:masteryscore>\{\{MASTERY_SCORE\}\}<\/adlcp:masteryscore>/, '');
  writeFileSync(join(distDir, 'trainscope-scorm12.zip'), createZip([
    { name: 'imsmanifest.xml', data: manifest },
    { name: 'index.html', data: inlinePage(html, scormScript, css, single) },
  ]));
  rmSync(join(distDir, 'scorm-sco.js'));
  // SCORM 2004 4th Edition: the same SCO page with the API_1484_11 adapter.
  const scorm2004Script = await bundle('ship/scorm2004-entry.ts', 'scorm2004-sco.js', '', dev);
  writeFileSync(join(distDir, 'trainscope-scorm2004.zip'), createZip([
    { name: 'imsmanifest.xml', data: scorm2004Manifest(readFileSync(join(webDir, 'ship', 'imsmanifest-2004.xml'), 'utf8'), masteryScore) },
    { name: 'index.html', data: inlinePage(html, scorm2004Script, css, single) },
  ]));
  rmSync(join(distDir, 'scorm2004-sco.js'));
  // cmi5: the AU page and cmi5.xml. Its CSP allows connections (only this build's): the AU posts
  // statements to the LRS its launch URL names, which no build can know in advance.
  const cmi5Script = await bundle('ship/cmi5-entry.ts', 'cmi5-au.js', '', dev);
  writeFileSync(join(distDir, 'trainscope-cmi5.zip'), createZip([
    { name: 'cmi5.xml', data: cmi5CourseStructure(readFileSync(join(webDir, 'ship', 'cmi5.xml'), 'utf8'), masteryScore) },
    { name: 'index.html', data: inlinePage(html, cmi5Script, css, single).replace("default-src 'none';", "default-src 'none'; connect-src https: http:;") },
  ]));
  rmSync(join(distDir, 'cmi5-au.js'));

  const outputs = ['index.html', 'trainscope.js', 'trainscope.css', 'trainscope.html', 'embed/trainscope-widget.js', 'embed/trainscope-engine.js',
    'embed/trainscope-iframe-host.js', 'iframe/trainscope-iframe.js', 'trainscope-scorm12.zip',
    'trainscope-scorm2004.zip', 'trainscope-cmi5.zip', ...PACK_LANGUAGES.map((language) => `i18n/${language}.json`)];
  for (const name of outputs) {
    const bytes = readFileSync(join(distDir, name));
    console.log(`web: dist/${name.padEnd(32)} ${(bytes.length / 1024).toFixed(1).padStart(7)} KiB (gzip ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KiB)`);
  }
}

/** The page keys' short ids, for every bundle of this build and its packs. */
const pageKeys = pageKeyIds();

if (args.has('--units')) await buildUnits();
else if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPage();
