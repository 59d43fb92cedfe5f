// The page's language plumbing without a browser (docs/i18n.md): a tag chooses a language or is
// refused; one engine module serves widgets in two languages, switched (setLanguage) only when the
// next call is another widget's, each language's catalogue handed over once; packs are checked
// before use; the build's short page keys map every key the code uses, and nothing else.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildUnitModules, enginePlugin, pageKeyIds, pageKeysPlugin } from '../../web/build.mjs';
import { repoRoot } from './quiz-build.mjs';

const outdir = join(repoRoot, 'build', 'i18n-units');
// engine/engine.ts loads its wasm through a virtual module; the element's remote loader stands in, never called here.
await buildUnitModules('src', ['engine/engine', 'i18n/i18n', 'i18n/packs'], outdir, [enginePlugin({ remote: true })]);
const load = (name) => import(pathToFileURL(join(outdir, `${name}.mjs`)).href);
const { engineFor, engineIn, giveCatalogue, wrap } = await load('engine');
const { chooseLanguage, translator } = await load('i18n');
const { readPack } = await load('packs');

/** A module that writes every number tagged with the language it was last set to, and logs the switches. */
function fakeModule({ speaks = true, refuse = '' } = {}) {
  const log = { set: [], loaded: [] };
  let language = 'en';
  const module = {
    presets: () => '[]',
    gpus: () => '[]',
    defaultScenario: () => '{}',
    fieldLimits: () => '{}',
    numberFormats: () => JSON.stringify([{ id: 'bf16', name: 'BF16', bytes: 2, label: `${language}:BF16` }]),
    timeAxisMarks: () => JSON.stringify([{ seconds: 86400, label: `${language}:1 day` }]),
    formatQuantity: (value) => `${language}:${value}`,
    estimate: () => JSON.stringify({ errors: [], language }),
  };
  if (speaks) {
    module.setLanguage = (tag) => {
      log.set.push(tag);
      language = tag;
      return true;
    };
    module.loadMessages = (tag) => {
      log.loaded.push(tag);
      return tag === refuse ? 'not a catalogue' : '';
    };
  }
  return { module, log };
}

test('a tag chooses its language by its primary subtag; one without words is refused, for a warning', () => {
  assert.deepEqual(chooseLanguage('de-AT'), { language: 'de', refused: null });
  assert.deepEqual(chooseLanguage('es-419'), { language: 'es', refused: null });
  assert.deepEqual(chooseLanguage('fr'), { language: 'en', refused: 'fr' });
  assert.deepEqual(chooseLanguage(''), { language: 'en', refused: null });
  assert.deepEqual(chooseLanguage(null), { language: 'en', refused: null });
});

test('two widgets share one module: each call in its own language, switched only when the language changes', () => {
  const { module, log } = fakeModule();
  const english = wrap(module);
  const german = engineIn(english, 'de');
  const spanish = engineIn(english, 'es');
  assert.equal(german.format(1.5, 'bytes'), 'de:1.5');
  assert.equal(german.format(2, 'bytes'), 'de:2');
  assert.equal(english.format(1.5, 'bytes'), 'en:1.5');
  assert.equal(spanish.format(3, 'bytes'), 'es:3');
  assert.equal(
    german.module.estimate('{}'),
    JSON.stringify({ errors: [], language: 'de' }),
    'the raw module seen through a view speaks its language too',
  );
  assert.deepEqual(log.set, ['de', 'en', 'es', 'de'], 'one switch per change of language, none for a repeat');
  // Lists with words are the view's own: asked in its language.
  assert.equal(german.numberFormats[0].label, 'de:BF16');
  assert.equal(english.timeAxisMarks[0].label, 'en:1 day');
  // A view of a view is a view of the module, not a second wrapper that switches back.
  const again = engineIn(german, 'es');
  assert.equal(again.format(4, 'bytes'), 'es:4');
});

test('a language’s catalogue is handed to the engine once; a refused one is named in a warning', (t) => {
  const { module, log } = fakeModule({ refuse: 'es' });
  const english = wrap(module);
  const pack = { page: {}, engine: { 'estimate.note': 'Hinweis' }, bank: {} };
  engineFor(english, { language: 'de', t: translator(pack.page), pack });
  engineFor(english, { language: 'de', t: translator(pack.page), pack });
  const warn = t.mock.method(console, 'warn', () => {});
  giveCatalogue(english.module, 'es', {});
  assert.deepEqual(log.loaded, ['de', 'es']);
  assert.equal(warn.mock.callCount(), 1);
  assert.match(warn.mock.calls[0].arguments[0], /es catalogue was not installed: not a catalogue/);
});

test('an engine without setLanguage still serves every widget (in English words)', () => {
  const { module } = fakeModule({ speaks: false });
  const german = engineIn(wrap(module), 'de');
  assert.equal(german.format(1, 'bytes'), 'en:1');
  assert.equal(german.language, 'de');
});

test('a pack is checked before use: its page and engine parts must be objects of texts', () => {
  assert.deepEqual(readPack({ page: { a: 'b' } }), { page: { a: 'b' }, engine: {}, bank: {} });
  assert.match(readPack([]), /not a JSON object/);
  assert.match(readPack({ page: { a: 1 } }), /"page" part/);
  assert.match(readPack({ engine: 'x' }), /"engine" part/);
});

test("the build’s short page keys: every t('key', …) of the page’s code has one, each different", async () => {
  const ids = pageKeyIds();
  assert.ok(ids.has('precision.heading') && ids.has('page.settings.theme'), 'keys of web/src and web/ship');
  assert.equal(new Set(ids.values()).size, ids.size, 'no two keys share an id');
  // The plugin rewrites the call's key and nothing else.
  const memory = await build({
    entryPoints: [join(repoRoot, 'web', 'src', 'sections', 'memory.ts')],
    write: false,
    bundle: false,
    format: 'esm',
    plugins: [pageKeysPlugin(ids)],
  });
  const text = memory.outputFiles[0].text;
  assert.ok(
    text.includes(`t("${ids.get('precision.heading')}", "Precision, optimizer and serving")`),
    'the key became its id, the English stayed',
  );
  assert.ok(!text.includes('"precision.heading"'));
});
