// The shipping code's pure parts: embed settings, the SCORM 1.2 session against a recording
// API, the ZIP writer, and turning the page into one self-contained file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkScenario, readSettings } from '../../build/web-units/ship/settings.mjs';
import { findScormApi, formatTimespan, ScormSession, SUSPEND_DATA_LIMIT } from '../../build/web-units/ship/scorm.mjs';
import { crc32, createZip } from '../../web/ship/zip.mjs';
import { Scorm12API } from 'scorm-again/scorm12';
import { inlinePage } from '../../web/build.mjs';

const none = { preset: null, scenario: null, sections: null, theme: null, passMark: null };

test('no attributes mean the whole page (the lesson, the quiz, the tools behind their disclosures), the system theme, no pass mark, no header and the built-in bank', () => {
  assert.deepEqual(readSettings(none), {
    scenario: {},
    sections: ['lesson', 'quiz', 'tools'],
    theme: 'auto',
    passMark: null,
    header: false,
    bank: null,
    quizSet: 'lesson',
    draw: null,
    practiceCounts: false,
    problems: [],
    sources: { preset: null, scenario: {} },
  });
});

test('the bank attribute is read as given, trimmed; blank means the built-in bank', () => {
  assert.equal(readSettings({ ...none, bank: '  banks/unit-3.json ' }).bank, 'banks/unit-3.json');
  for (const value of [null, undefined, '', '   ']) assert.equal(readSettings({ ...none, bank: value }).bank, null, String(value));
});

test('header is on when present (empty, on, true), off when off or absent, and a problem otherwise', () => {
  for (const value of ['', 'on', 'ON', 'true', 'header']) assert.equal(readSettings({ ...none, header: value }).header, true, value);
  for (const value of [null, undefined, 'off', 'false'])
    assert.equal(readSettings({ ...none, header: value }).header, false, String(value));
  const bad = readSettings({ ...none, header: 'maybe' });
  assert.equal(bad.header, false);
  assert.deepEqual(bad.problems, ['The header attribute must be on or off, not “maybe”.']);
});

/** Stands in for the engine: refuses an unknown preset and a GPU count below 1 (the browser tests use the real one). */
function fakeEstimate(scenario) {
  const errors = [];
  if (scenario.model?.preset && !['llama3-8b', 'llama3-70b'].includes(scenario.model.preset))
    errors.push({ field: 'model.preset', message: `unknown preset '${scenario.model.preset}'` });
  if (scenario.parallel?.gpus < 1) errors.push({ field: 'parallel.gpus', message: 'must be at least 1' });
  return { errors };
}

test('a preset the engine does not know is a problem naming preset; the scenario attribute alone is used', () => {
  const settings = checkScenario(readSettings({ ...none, preset: 'llama9', scenario: '{"parallel":{"gpus":8}}' }), fakeEstimate);
  assert.deepEqual(settings.scenario, { parallel: { gpus: 8 } });
  assert.deepEqual(settings.problems, ["The preset attribute is not usable: unknown preset 'llama9'."]);
});

test('a scenario the engine refuses is a problem naming scenario; the preset alone is used', () => {
  const settings = checkScenario(readSettings({ ...none, preset: 'llama3-8b', scenario: '{"parallel":{"gpus":-3}}' }), fakeEstimate);
  assert.deepEqual(settings.scenario, { model: { preset: 'llama3-8b' } });
  assert.deepEqual(settings.problems, ['The scenario attribute has problems (parallel.gpus: must be at least 1).']);
  const both = checkScenario(readSettings({ ...none, preset: 'llama9', scenario: '{"parallel":{"gpus":-3}}' }), fakeEstimate);
  assert.deepEqual(both.scenario, {}, 'both refused: the defaults');
  assert.equal(both.problems.length, 2);
  const fine = readSettings({ ...none, preset: 'llama3-70b' });
  assert.equal(checkScenario(fine, fakeEstimate), fine, 'a good scenario passes unchanged');
});

test('attributes become options; preset wins over the scenario’s model', () => {
  const settings = readSettings({
    preset: 'llama3-405b',
    scenario: '{"model":{"preset":"gpt2-124m"},"parallel":{"gpus":64}}',
    sections: 'Time, quiz',
    theme: 'DARK',
    passMark: '70%',
  });
  assert.deepEqual(settings.scenario, { model: { preset: 'llama3-405b' }, parallel: { gpus: 64 } });
  assert.deepEqual(settings.sections, ['time', 'quiz']);
  assert.equal(settings.theme, 'dark');
  assert.equal(settings.passMark, 0.7);
  assert.deepEqual(settings.problems, []);
});

test('each bad attribute is named in a problem and its default is used', () => {
  const settings = readSettings({ preset: null, scenario: '{oops', sections: 'memory charts', theme: 'purple', passMark: '2' });
  assert.deepEqual(settings.scenario, {});
  assert.deepEqual(settings.sections, ['memory']);
  assert.equal(settings.theme, 'auto');
  assert.equal(settings.passMark, null);
  assert.equal(settings.problems.length, 4);
  for (const name of ['scenario', 'sections', 'theme', 'pass-mark'])
    assert.ok(
      settings.problems.some((p) => p.includes(name)),
      name,
    );
  assert.equal(readSettings({ ...none, scenario: '[1,2]' }).problems.length, 1, 'an array is not a scenario');
  assert.equal(readSettings({ ...none, passMark: 'NaN' }).passMark, null);
});

/** A SCORM 1.2 API that records every call (RTE §3.2), like an LMS with some data already. */
function recordingApi(initial = {}) {
  const data = { 'cmi.core.lesson_status': 'not attempted', 'cmi.suspend_data': '', ...initial };
  const calls = [];
  const api = {
    LMSInitialize: (p) => (calls.push(['LMSInitialize', p]), 'true'),
    LMSFinish: (p) => (calls.push(['LMSFinish', p]), 'true'),
    LMSGetValue: (e) => (calls.push(['LMSGetValue', e]), data[e] ?? ''),
    LMSSetValue: (e, v) => (calls.push(['LMSSetValue', e, v]), (data[e] = v), 'true'),
    LMSCommit: (p) => (calls.push(['LMSCommit', p]), 'true'),
    LMSGetLastError: () => '0',
    LMSGetErrorString: () => '',
    LMSGetDiagnostic: () => '',
  };
  return { api, calls, data };
}

test('the API is found on an ancestor frame, and a cross-origin frame on the way is skipped', () => {
  const { api } = recordingApi();
  const top = { API: api };
  top.parent = top;
  const crossOrigin = { parent: top };
  Object.defineProperty(crossOrigin, 'API', {
    get() {
      throw new Error('SecurityError');
    },
  });
  const sco = { parent: crossOrigin };
  assert.equal(findScormApi(sco), api);
  const alone = {};
  alone.parent = alone;
  assert.equal(findScormApi(alone), null);
});

test('a session reports score, status and suspend data, then finishes with the session time', () => {
  const { api, calls, data } = recordingApi({ 'cmi.student_data.mastery_score': '80' });
  let now = 1_000;
  const session = new ScormSession(api, () => now);
  assert.equal(session.start(), true);
  assert.deepEqual(calls[0], ['LMSInitialize', '']);
  assert.equal(data['cmi.core.lesson_status'], 'incomplete');
  assert.equal(session.passMark(), 0.8);

  session.report({ score: 3, max: 21, scaled: 3 / 21, passed: null, completed: false });
  assert.equal(data['cmi.core.score.raw'], '14');
  assert.equal(data['cmi.core.score.min'], '0');
  assert.equal(data['cmi.core.score.max'], '100');
  assert.equal(data['cmi.core.lesson_status'], 'incomplete');
  session.report({ score: 17, max: 21, scaled: 17 / 21, passed: true, completed: true });
  assert.equal(data['cmi.core.lesson_status'], 'passed');
  assert.ok(calls.filter((call) => call[0] === 'LMSCommit').length >= 2, 'each report is committed');

  assert.equal(session.saveSuspendData('x'.repeat(SUSPEND_DATA_LIMIT)), true);
  assert.equal(session.saveSuspendData('x'.repeat(SUSPEND_DATA_LIMIT + 1)), false, 'never more than SCORM 1.2 allows');
  assert.equal(data['cmi.suspend_data'].length, SUSPEND_DATA_LIMIT);

  now += 3_723_450; // 1 h 2 min 3.45 s
  session.finish();
  assert.equal(data['cmi.core.session_time'], '0001:02:03.45');
  assert.equal(data['cmi.core.exit'], '');
  assert.deepEqual(calls.at(-1), ['LMSFinish', '']);
  session.finish();
  assert.equal(calls.filter((call) => call[0] === 'LMSFinish').length, 1, 'finishes once');
});

test('without a pass mark completion is "completed", and an earned status is never taken back', () => {
  const { api, data } = recordingApi({ 'cmi.core.lesson_status': 'completed' });
  const session = new ScormSession(api);
  session.start();
  assert.equal(session.passMark(), null);
  session.report({ score: 1, max: 21, scaled: 1 / 21, passed: null, completed: false });
  assert.equal(data['cmi.core.lesson_status'], 'completed', 'a retake does not reset completion');
  session.finish();
  assert.equal(data['cmi.core.exit'], 'suspend', 'the unfinished retake is resumed next time, not thrown away');
});

/**
 * A real SCORM 1.2 run-time (scorm-again, as LMSs embed it) holding `record` from earlier
 * sessions, counting commits. Its log stays quiet unless a call is wrong.
 */
function realLms(record = {}) {
  const api = new Scorm12API({ logLevel: 4 });
  api.loadFromJSON(record);
  const lms = { api, commits: 0, errors: [] };
  api.on('LMSCommit', () => {
    lms.commits += 1;
  });
  lms.value = (element) => api.getCMIValue(element);
  return lms;
}

test('once passed with 95, a later session that restarts and finishes low leaves passed and 95 (real run-time)', () => {
  const lms = realLms({
    core: { lesson_status: 'passed', score: { raw: '95', min: '0', max: '100' } },
    student_data: { mastery_score: '80' },
  });
  const session = new ScormSession(lms.api);
  assert.equal(session.start(), true);
  session.report({ score: 1, max: 21, scaled: 1 / 21, passed: null, completed: false });
  session.report({ score: 5, max: 21, scaled: 5 / 21, passed: false, completed: true });
  assert.equal(lms.value('cmi.core.lesson_status'), 'passed', 'a pass is never taken back');
  assert.equal(lms.value('cmi.core.score.raw'), '95', 'the best score is the one reported');
  session.finish();
  assert.equal(lms.value('cmi.core.lesson_status'), 'passed');
});

test('a failed learner who passes later is passed, with the better score (real run-time)', () => {
  const lms = realLms({
    core: { lesson_status: 'failed', score: { raw: '24', min: '0', max: '100' } },
    student_data: { mastery_score: '80' },
  });
  const session = new ScormSession(lms.api);
  session.start();
  session.report({ score: 2, max: 21, scaled: 2 / 21, passed: null, completed: false });
  assert.equal(lms.value('cmi.core.lesson_status'), 'failed', 'a retake in progress does not turn failed into incomplete');
  assert.equal(lms.value('cmi.core.score.raw'), '24');
  session.report({ score: 18, max: 21, scaled: 18 / 21, passed: true, completed: true });
  assert.equal(lms.value('cmi.core.lesson_status'), 'passed');
  assert.equal(lms.value('cmi.core.score.raw'), '86');
});

test('an answer (its saved state, then its score) is committed to the LMS once (real run-time)', () => {
  const lms = realLms();
  const session = new ScormSession(lms.api);
  session.start();
  const before = lms.commits;
  session.quizStorage().save('{"v":1,"i":{}}');
  session.report({ score: 1, max: 21, scaled: 1 / 21, passed: null, completed: false });
  assert.equal(lms.commits - before, 1);
  assert.equal(lms.value('cmi.suspend_data'), '{"v":1,"i":{}}');
  session.quizStorage().save('{"v":1,"i":{}}');
  session.report({ score: 1, max: 21, scaled: 1 / 21, passed: null, completed: false });
  assert.equal(lms.commits - before, 1, 'nothing changed, nothing committed');
});

test('without an LMS every call is a quiet no-op', () => {
  const session = new ScormSession(null);
  assert.equal(session.start(), false);
  session.report({ score: 1, max: 2, scaled: 0.5, passed: null, completed: false });
  assert.equal(session.loadSuspendData(), '');
  assert.equal(session.saveSuspendData('state'), false);
  session.finish();
  assert.equal(session.connected, false);
});

test('SCORM time spans are HHHH:MM:SS.SS', () => {
  assert.equal(formatTimespan(0), '0000:00:00.00');
  assert.equal(formatTimespan(59_990), '0000:00:59.99');
  assert.equal(formatTimespan(59_999), '0000:01:00.00', 'rounded to hundredths, carrying into minutes');
  assert.equal(formatTimespan(-5), '0000:00:00.00');
  assert.equal(formatTimespan(1e12), '9999:46:40.00', 'capped at 9999 hours');
});

test('the ZIP writer makes archives that unzip reads back byte for byte', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926, 'the CRC-32 check value (ISO-HDLC)');
  const folder = mkdtempSync(join(tmpdir(), 'trainscope-zip-'));
  const big = Buffer.alloc(100_000, 7);
  writeFileSync(
    join(folder, 'test.zip'),
    createZip([
      { name: 'imsmanifest.xml', data: '<manifest/>' },
      { name: 'dir/data.bin', data: big },
    ]),
  );
  execFileSync('unzip', ['-q', join(folder, 'test.zip'), '-d', join(folder, 'out')]);
  assert.equal(readFileSync(join(folder, 'out', 'imsmanifest.xml'), 'utf8'), '<manifest/>');
  assert.deepEqual(readFileSync(join(folder, 'out', 'dir', 'data.bin')), big);
  assert.deepEqual(createZip([{ name: 'a', data: 'b' }]), createZip([{ name: 'a', data: 'b' }]), 'reproducible');
});

test('the single file inlines script and styles and allows exactly them by hash', () => {
  const html = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'">
<link rel="stylesheet" href="trainscope.css">
<script src="trainscope.js"></script>`;
  const script = 'console.log("$& $1 a replacement pattern stays literal")';
  const css = '.a{color:red}';
  const page = inlinePage(html, script, css);
  const hash = (text) => createHash('sha256').update(text).digest('base64');
  assert.ok(page.includes(`<script>${script}</script>`));
  assert.ok(page.includes(`<style data-trainscope-styles>${css}</style>`));
  assert.ok(page.includes(`script-src 'sha256-${hash(script)}' 'wasm-unsafe-eval'`));
  assert.ok(page.includes(`style-src 'sha256-${hash(css)}'`));
  assert.throws(() => inlinePage(html, 'x = "</script>"', css), /cannot be inlined/);
});

test('sections takes the lesson parts, the deeper parts and the groups by name, and names the known ones when one is not', () => {
  assert.deepEqual(readSettings({ ...none, sections: 'run-vs-train' }).sections, ['run-vs-train']);
  assert.deepEqual(readSettings({ ...none, sections: 'compute-time fit quiz' }).sections, ['compute-time', 'fit', 'quiz']);
  const wrong = readSettings({ ...none, sections: 'run-vs-trian lesson' });
  assert.deepEqual(wrong.sections, ['lesson']);
  assert.match(wrong.problems[0], /run-vs-trian/);
  assert.match(wrong.problems[0], /run-vs-train, training-extras/);
});
