// Where the page marks a glossary term (web/src/figures/term-match.ts), and the glossary the
// engine gives it (web/src/engine/glossary.ts), read from the real wasm engine in three languages.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTerms, splitAtTerms } from '../../build/web-units/term-match.mjs';
import { readGlossary } from '../../build/web-units/glossary.mjs';
import { engineModule, repoRoot } from './wasm-engine.mjs';

const tensor = { id: 'tensor_parallel', abbreviation: 'TP', name: 'tensor parallelism', forms: ['tensor parallel', 'tensor-parallel'] };
const data = { id: 'data_parallel', abbreviation: 'DP', name: 'data parallelism', forms: ['data parallel', 'data-parallel'] };
const pipeline = { id: 'pipeline_parallel', abbreviation: 'PP', name: 'pipeline parallelism', forms: ['pipeline'] };
const bubble = { id: 'pipeline_bubble', abbreviation: '', name: 'pipeline bubble', forms: ['bubble'] };

const marked = (text, terms) => findTerms(text, terms).map((span) => text.slice(span.start, span.end));

test('a form is found in any case and runs to the end of its word', () => {
  assert.deepEqual(marked('Tensor parallel degree', [tensor]), ['Tensor parallel']);
  assert.deepEqual(marked('Tensor parallelism splits each matrix', [tensor]), ['Tensor parallelism']);
  assert.deepEqual(marked('Datenparallelität hält Kopien', [{ ...data, forms: ['datenparallel'] }]), ['Datenparallelität']);
});

test('an abbreviation is found only as written and only as a whole word', () => {
  assert.deepEqual(marked('plain data parallel (DDP) then DP 8', [{ ...data, name: 'x', forms: [] }]), ['DP']);
  assert.deepEqual(marked('tp 2 × TPU', [{ ...tensor, name: 'x', forms: [] }]), []);
  assert.deepEqual(marked('ZeRO-3 keeps a slice', [{ id: 'zero', abbreviation: 'ZeRO', name: 'Zero Redundancy Optimizer', forms: [] }]), [
    'ZeRO',
  ]);
});

test('each term is marked once, at its first mention, whichever of its forms comes first', () => {
  assert.deepEqual(marked('data-parallel GPUs, then data parallelism again', [data]), ['data-parallel']);
});

test('two terms never overlap: the earlier in the list wins, the other takes its next mention', () => {
  const text = 'The pipeline bubble of pipeline parallelism';
  assert.deepEqual(marked(text, [bubble, pipeline]), ['pipeline bubble', 'pipeline parallelism']);
  assert.deepEqual(marked('the pipeline bubble', [pipeline, bubble]), ['pipeline', 'bubble']);
});

test('spans come back in the text’s order and split it into plain text and terms', () => {
  const text = 'TP and DP';
  const spans = findTerms(text, [data, tensor]);
  assert.deepEqual(
    spans.map((span) => span.id),
    ['tensor_parallel', 'data_parallel'],
  );
  assert.deepEqual(splitAtTerms(text, spans), [{ id: 'tensor_parallel', text: 'TP' }, ' and ', { id: 'data_parallel', text: 'DP' }]);
});

test('a term not mentioned is left out, and a text without terms stays whole', () => {
  assert.deepEqual(findTerms('nothing to see', [tensor]), []);
  assert.deepEqual(splitAtTerms('nothing to see', []), ['nothing to see']);
});

test('an unreadable glossary answer gives no terms, and a malformed term is left out', () => {
  assert.equal(readGlossary('not json').terms.length, 0);
  const glossary = readGlossary(JSON.stringify({ terms: [{ id: 'a' }, { ...tensor, definition: 'd', source: '' }] }));
  assert.deepEqual(
    glossary.terms.map((term) => term.id),
    ['tensor_parallel'],
  );
  assert.equal(glossary.term('a'), undefined);
});

function glossaryIn(language) {
  if (language !== 'en') {
    const catalogue = {};
    for (const name of ['engine.json', 'engine-quantity.json', 'engine-quiz.json', 'engine-glossary.json'])
      Object.assign(catalogue, JSON.parse(readFileSync(join(repoRoot, 'i18n', language, name), 'utf8')));
    assert.equal(engineModule.loadMessages(language, JSON.stringify(catalogue)), '');
  }
  engineModule.setLanguage(language);
  try {
    return readGlossary(engineModule.glossary());
  } finally {
    engineModule.setLanguage('en');
  }
}

test('the engine’s glossary has every term in English, German and Spanish, each with a name and a definition', () => {
  const english = glossaryIn('en');
  assert.ok(english.terms.length >= 30, `${english.terms.length} terms`);
  for (const language of ['de', 'es']) {
    const translated = glossaryIn(language);
    assert.deepEqual(
      translated.terms.map((term) => term.id),
      english.terms.map((term) => term.id),
    );
    for (const term of translated.terms) {
      assert.ok(term.name.trim(), `${language} ${term.id}: a name`);
      assert.notEqual(term.definition, english.term(term.id).definition, `${language} ${term.id}: translated`);
    }
  }
});

test('every term the page marks is found in the English sentences it is marked in', () => {
  const english = glossaryIn('en');
  const page = JSON.parse(readFileSync(join(repoRoot, 'i18n', 'en', 'page.json'), 'utf8'));
  const cases = [
    ['sharding.prose_1', 'data_parallel', 'data parallelism'],
    ['sharding.prose_2', 'fsdp', 'FSDP'],
    ['sharding.deeper.interleave_hint', 'one_f_one_b', '1F1B'],
    ['activations.global_batch', 'global_batch', 'Global batch'],
    ['activations.micro_batch', 'micro_batch', 'Micro-batch'],
    ['layout.pipeline', 'pipeline_parallel', 'Pipeline stages'],
    ['time.fact.mfu', 'mfu', 'Model FLOPs utilisation'],
  ];
  for (const [key, id, expected] of cases) assert.deepEqual(marked(page[key], [english.term(id)]), [expected], key);
});
