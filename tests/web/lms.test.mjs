// The LMS and analytics modules' pure parts (issue 13): xAPI statements from a score event, the
// SCORM 2004 session against scorm-again's real SCORM 2004 run-time, the cmi5 launch readers and
// the cmi5 session's rules against a recording fetch. The browser tests run them in the packages.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Scorm2004API } from 'scorm-again/scorm2004';
import { itemActivityId, quizActivityId, statementsFor, uuid } from '../../build/web-units/ship/xapi.mjs';
import { formatDuration, Scorm2004Session, SUSPEND_DATA_LIMIT_2004 } from '../../build/web-units/ship/scorm2004.mjs';
import { Cmi5Session, readLaunch, readLaunchData } from '../../build/web-units/ship/cmi5.mjs';
import { readFileSync } from 'node:fs';
import { cmi5CourseStructure, scorm2004Manifest } from '../../web/build.mjs';

const answer = (overrides = {}) => ({
  bank: 'abc123',
  itemId: 'gpu-memory',
  kind: 'single_choice',
  prompt: 'Which is right?',
  options: [
    { id: 'a', text: 'A' },
    { id: 'b', text: 'B' },
  ],
  correctOptions: ['a'],
  response: 'a',
  correct: true,
  revealed: false,
  credit: 1,
  completesQuiz: false,
  ...overrides,
});
const scoreEvent = (overrides = {}) => ({
  score: 1,
  right: 1,
  max: 4,
  scaled: 0.25,
  passed: null,
  completed: false,
  answered: 1,
  answer: answer(),
  ...overrides,
});
const fixed = { now: () => new Date('2026-01-02T03:04:05.000Z'), newId: () => '00000000-0000-4000-8000-000000000000' };
const verbs = (statements) => statements.map((statement) => statement.verb.id.split('/').at(-1));

test('an answer is one "answered" statement about the item, with success, response and the item’s points', () => {
  const [statement, ...rest] = statementsFor(scoreEvent({ answer: answer({ credit: 0.5 }) }), fixed);
  assert.deepEqual(rest, []);
  assert.equal(statement.verb.id, 'http://adlnet.gov/expapi/verbs/answered');
  assert.equal(statement.object.id, 'urn:trainscope:quiz:abc123/item/gpu-memory');
  assert.equal(statement.timestamp, '2026-01-02T03:04:05.000Z');
  assert.deepEqual(statement.result, { success: true, response: 'a', score: { scaled: 0.5, raw: 0.5, min: 0, max: 1 } });
  assert.deepEqual(statement.object.definition.choices, [
    { id: 'a', description: { en: 'A' } },
    { id: 'b', description: { en: 'B' } },
  ]);
});

test('a typed answer is a fill-in interaction with the text as typed, and no correct pattern', () => {
  const [statement] = statementsFor(
    scoreEvent({ answer: answer({ kind: 'numeric', options: [], correctOptions: [], response: '1,5 TB', correct: false, credit: 0 }) }),
    fixed,
  );
  assert.equal(statement.object.definition.interactionType, 'fill-in');
  assert.equal(statement.object.definition.correctResponsesPattern, undefined);
  assert.deepEqual(statement.result, { success: false, response: '1,5 TB', score: { scaled: 0, raw: 0, min: 0, max: 1 } });
});

test('a shown solution answers nothing; the one that completes the quiz gives completed and the verdict', () => {
  assert.deepEqual(statementsFor(scoreEvent({ answer: answer({ revealed: true, correct: false, credit: 0 }) }), fixed), []);
  const completing = statementsFor(
    scoreEvent({ answer: answer({ revealed: true, completesQuiz: true }), completed: true, passed: false, score: 1, scaled: 0.25 }),
    fixed,
  );
  assert.deepEqual(verbs(completing), ['completed', 'failed']);
  assert.deepEqual(completing[0].result, { completion: true, success: false, score: { scaled: 0.25, raw: 1, min: 0, max: 4 } });
  const passing = statementsFor(
    scoreEvent({ answer: answer({ completesQuiz: true }), completed: true, passed: true, score: 3.5, scaled: 0.875 }),
    fixed,
  );
  assert.deepEqual(verbs(passing), ['answered', 'completed', 'passed']);
  assert.deepEqual(passing[2].result.score, { scaled: 0.875, raw: 3.5, min: 0, max: 4 });
  const noMark = statementsFor(scoreEvent({ answer: answer({ completesQuiz: true }), completed: true, passed: null }), fixed);
  assert.deepEqual(verbs(noMark), ['answered', 'completed'], 'without a pass mark, no verdict');
  assert.equal(noMark[1].result.success, undefined);
  assert.deepEqual(statementsFor(scoreEvent({ answer: undefined }), fixed), [], 'a score without an answer stands for no statement');
});

test('activity IRIs: the host’s, trailing slashes dropped, item ids escaped; uuids are version 4', () => {
  assert.equal(quizActivityId('abc', 'https://course.example/quiz/'), 'https://course.example/quiz');
  assert.equal(quizActivityId('abc', '  '), 'urn:trainscope:quiz:abc');
  assert.equal(itemActivityId('https://course.example/quiz', 'a b/c'), 'https://course.example/quiz/item/a%20b%2Fc');
  const [statement] = statementsFor(scoreEvent(), { ...fixed, activity: 'https://course.example/quiz' });
  assert.equal(statement.object.id, 'https://course.example/quiz/item/gpu-memory');
  assert.match(uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

// ── SCORM 2004 ─────────────────────────────────────────────────────────────────────────────────

function realLms2004(record = {}) {
  const api = new Scorm2004API({ logLevel: 4 });
  api.loadFromJSON(record);
  const lms = { api, commits: 0 };
  api.on('Commit', () => {
    lms.commits += 1;
  });
  lms.value = (element) => api.getCMIValue(element);
  return lms;
}

test('SCORM 2004: a launch marks the SCO incomplete; answers report the best score, location and one Commit', () => {
  const lms = realLms2004();
  const session = new Scorm2004Session(lms.api);
  assert.equal(session.start(), true);
  assert.equal(lms.value('cmi.completion_status'), 'incomplete');
  const before = lms.commits;
  session.quizStorage().save('{"v":1}');
  session.report({ score: 2, max: 4, scaled: 0.5, passed: null, completed: false }, answer({ itemId: 'q2' }));
  assert.equal(lms.commits - before, 1);
  assert.equal(lms.value('cmi.score.scaled'), '0.5');
  assert.equal(lms.value('cmi.score.raw'), '50');
  assert.equal(lms.value('cmi.location'), 'q2');
  assert.equal(lms.value('cmi.suspend_data'), '{"v":1}');
  session.report({ score: 1, max: 4, scaled: 0.25, passed: null, completed: true });
  assert.equal(lms.value('cmi.score.scaled'), '0.5', 'the best score of the attempt stays');
  assert.equal(lms.value('cmi.completion_status'), 'completed');
  assert.equal(lms.value('cmi.success_status'), 'unknown');
  session.report({ score: 0, max: 4, scaled: 0, passed: null, completed: false });
  assert.equal(lms.value('cmi.completion_status'), 'completed', 'a retake does not take completion back');
  assert.equal(session.quizStorage().save('x'.repeat(SUSPEND_DATA_LIMIT_2004 + 1)), undefined);
  assert.equal(lms.value('cmi.suspend_data'), '{"v":1}', 'too long for SCORM 2004: not sent');
  session.finish();
  assert.equal(lms.api.renderCMIToJSONObject().cmi.exit, 'suspend');
});

test('SCORM 2004: failed climbs to passed, passed never falls back; the pass mark is the LMS’s scaled_passing_score', () => {
  const lms = realLms2004({
    scaled_passing_score: '0.75',
    success_status: 'failed',
    completion_status: 'completed',
    score: { scaled: '0.25' },
  });
  const session = new Scorm2004Session(lms.api);
  session.start();
  assert.equal(session.passMark(), 0.75);
  session.report({ score: 3, max: 4, scaled: 0.75, passed: true, completed: false });
  assert.equal(lms.value('cmi.success_status'), 'passed');
  session.report({ score: 1, max: 4, scaled: 0.25, passed: false, completed: true });
  assert.equal(lms.value('cmi.success_status'), 'passed');
  assert.equal(lms.value('cmi.score.scaled'), '0.75');
});

test('SCORM 2004 session_time is an ISO 8601 duration', () => {
  assert.equal(formatDuration(0), 'PT0S');
  assert.equal(formatDuration(61_500), 'PT1M1.5S');
  assert.equal(formatDuration(3_600_000 + 2_000), 'PT1H2S');
  assert.equal(formatDuration(-5), 'PT0S');
});

// ── cmi5 ───────────────────────────────────────────────────────────────────────────────────────

const launchQuery = (overrides = {}) =>
  new URLSearchParams({
    endpoint: 'https://lrs.example/xapi',
    fetch: 'https://lms.example/token?k=1',
    actor: JSON.stringify({ objectType: 'Agent', account: { homePage: 'https://lms.example', name: 'ada' } }),
    registration: 'reg-1',
    activityId: 'https://lms.example/au/1',
    ...overrides,
  }).toString();

test('cmi5 launch: all five parameters or no LMS; the endpoint gets its slash', () => {
  const launch = readLaunch(`?${launchQuery()}`);
  assert.equal(launch.endpoint, 'https://lrs.example/xapi/');
  assert.equal(launch.actor.account.name, 'ada');
  assert.equal(readLaunch(''), null);
  assert.equal(readLaunch(`?${launchQuery({ actor: '{not json' })}`), null);
  assert.equal(readLaunch(`?${launchQuery({ actor: '[1]' })}`), null);
  assert.equal(readLaunch(`?${launchQuery({ endpoint: 'javascript:alert(1)' })}`), null);
  const params = new URLSearchParams(launchQuery());
  params.delete('registration');
  assert.equal(readLaunch(`?${params}`), null);
});

test('cmi5 LaunchData: unknown modes are Normal, a mastery score outside 0..1 is none', () => {
  assert.deepEqual(readLaunchData(null), {
    contextTemplate: {},
    launchMode: 'Normal',
    moveOn: 'NotApplicable',
    masteryScore: null,
    returnURL: null,
  });
  assert.equal(readLaunchData({ launchMode: 'Review' }).launchMode, 'Review');
  assert.equal(readLaunchData({ launchMode: 'Sideways' }).launchMode, 'Normal');
  assert.equal(readLaunchData({ masteryScore: 1.5 }).masteryScore, null);
  assert.equal(readLaunchData({ masteryScore: 0.7 }).masteryScore, 0.7);
});

/** A fetch that answers as a cmi5 LMS would and records what the AU sent, in order. */
function recordingLms({ launchMode = 'Normal', saved = null } = {}) {
  const sent = [];
  const reply = (status, body) => Promise.resolve(new Response(body === undefined ? null : JSON.stringify(body), { status }));
  const fetchImpl = (url, init = {}) => {
    sent.push({ url, method: init.method, body: init.body ? JSON.parse(init.body) : null });
    if (url.startsWith('https://lms.example/token')) return reply(200, { 'auth-token': 'dG9rZW4=' });
    if (url.includes('stateId=LMS.LaunchData'))
      return reply(200, {
        launchMode,
        masteryScore: 0.5,
        moveOn: 'Passed',
        contextTemplate: { extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': 's-1' } },
      });
    if (url.includes('activities/state') && init.method === 'GET') return saved ? reply(200, saved) : reply(404);
    if (url.includes('activities/state')) return reply(204);
    return reply(200, ['id']);
  };
  return { sent, fetchImpl, statements: () => sent.filter((entry) => entry.url.endsWith('/statements')).map((entry) => entry.body) };
}

const completingFail = scoreEvent({
  answer: answer({ completesQuiz: true, correct: false, credit: 0 }),
  completed: true,
  passed: false,
  score: 0,
  scaled: 0,
});

test('cmi5: failed at most once per session; none after a pass; completed once per registration', async () => {
  const lms = recordingLms();
  const session = new Cmi5Session(readLaunch(`?${launchQuery()}`), lms.fetchImpl);
  assert.equal(await session.start(), true);
  assert.equal(session.passMark(), 0.5);
  for (let round = 0; round < 2; round += 1)
    for (const statement of statementsFor(completingFail)) session.forward(statement, completingFail);
  await session.finish();
  assert.deepEqual(verbs(lms.statements()), ['initialized', 'answered', 'completed', 'failed', 'answered', 'terminated']);
  const saved = lms.sent.filter((entry) => entry.method === 'PUT').at(-1).body;
  assert.equal(saved.completed, true);

  const after = recordingLms({ saved: { quiz: null, completed: true, passed: true } });
  const later = new Cmi5Session(readLaunch(`?${launchQuery()}`), after.fetchImpl);
  await later.start();
  for (const statement of statementsFor(completingFail)) later.forward(statement, completingFail);
  await later.finish();
  assert.deepEqual(verbs(after.statements()), ['initialized', 'answered', 'terminated']);
});

test('cmi5: Review mode sends only initialized and terminated; nothing after terminated', async () => {
  const lms = recordingLms({ launchMode: 'Review' });
  const session = new Cmi5Session(readLaunch(`?${launchQuery()}`), lms.fetchImpl);
  await session.start();
  for (const statement of statementsFor(completingFail)) session.forward(statement, completingFail);
  await session.finish();
  for (const statement of statementsFor(completingFail)) session.forward(statement, completingFail);
  await session.finish();
  assert.deepEqual(verbs(lms.statements()), ['initialized', 'terminated']);
});

test('cmi5: a fetch URL that gives no token leaves the AU unconnected, with one warning and no statement', async () => {
  const sent = [];
  const warnings = [];
  const originalWarn = console.warn;
  console.warn = (...args) => warnings.push(args.join(' '));
  try {
    const session = new Cmi5Session(readLaunch(`?${launchQuery()}`), (url) => {
      sent.push(url);
      return Promise.resolve(new Response(JSON.stringify({ 'error-code': '1', 'error-text': 'already used' }), { status: 400 }));
    });
    assert.equal(await session.start(), false);
    assert.equal(session.connected, false);
    await session.finish();
  } finally {
    console.warn = originalWarn;
  }
  assert.equal(sent.length, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /already used/);
});

// ── Packaging ─────────────────────────────────────────────────────────────────────────────────

const template = (name) => readFileSync(new URL(`../../web/ship/${name}`, import.meta.url), 'utf8');

test('SCORM 2004 manifest: a pass mark of 70 becomes minNormalizedMeasure 0.7; none or a bad one, no sequencing', () => {
  const with70 = scorm2004Manifest(template('imsmanifest-2004.xml'), '70');
  assert.match(
    with70,
    /<imsss:primaryObjective objectiveID="[^"]+" satisfiedByMeasure="true">\s*<imsss:minNormalizedMeasure>0\.7<\/imsss:minNormalizedMeasure>/,
  );
  for (const value of [undefined, '', '101', '7.5', 'abc']) {
    const without = scorm2004Manifest(template('imsmanifest-2004.xml'), value);
    assert.doesNotMatch(without, /imsss:sequencing|\{\{/, String(value));
  }
});

test('cmi5.xml: with a pass mark, masteryScore and moveOn CompletedAndPassed; without, moveOn Completed', () => {
  const with70 = cmi5CourseStructure(template('cmi5.xml'), '70');
  assert.match(with70, /<au [^>]*moveOn="CompletedAndPassed" masteryScore="0\.7"/);
  const without = cmi5CourseStructure(template('cmi5.xml'), undefined);
  assert.match(without, /<au [^>]*moveOn="Completed"/);
  assert.doesNotMatch(without, /masteryScore|\{\{/);
  assert.match(without, /<url>index\.html<\/url>/);
});
