// Issue 34, what a course sees: every answer as an interaction and every takeaway as an objective
// in scorm-again's real SCORM 1.2 and 2004 run-times, over two launches (the record carried from
// one to the next as an LMS keeps it), within each data model's limits; and every xAPI statement
// (answered in German and Spanish, completed, passed, mastered, and the cmi5 AU's) accepted by
// Learning Locker's validator, xapi-validation.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Scorm12API } from 'scorm-again/scorm12';
import { Scorm2004API } from 'scorm-again/scorm2004';
import validateStatement from 'xapi-validation';
import { ScormSession, readInteractionMap } from '../../build/web-units/ship/scorm.mjs';
import { Scorm2004Session } from '../../build/web-units/ship/scorm2004.mjs';
import { masteryStatement, statementsFor } from '../../build/web-units/ship/xapi.mjs';
import { Cmi5Session } from '../../build/web-units/ship/cmi5.mjs';
import { clip, lmsId, lmsLanguage, questionName, takeawayStates } from '../../build/web-units/ship/report.mjs';

const validate = validateStatement.default ?? validateStatement;
const LEARNER = { objectType: 'Agent', account: { homePage: 'https://school.example', name: 'ada' } };

const answer = (overrides = {}) => ({
  bank: 'abc123',
  itemId: 'run-bytes-per-parameter',
  kind: 'single_choice',
  prompt: 'You run (not train) a model in BF16. About how many bytes does each parameter need?',
  options: [
    { id: 'two', text: '2 bytes' },
    { id: 'four', text: '4 bytes' },
  ],
  correctOptions: ['two'],
  response: 'two',
  correct: true,
  revealed: false,
  credit: 1,
  completesQuiz: false,
  takeaway: 'memory-per-parameter',
  takeawayTitle: 'Running needs about 2 bytes per parameter; training about 16.',
  language: 'en',
  expected: '',
  latency: 12340,
  ...overrides,
});
const typed = (overrides = {}) =>
  answer({
    itemId: 'train-bytes-per-parameter',
    kind: 'numeric',
    prompt: 'Training with AdamW in mixed precision: how many bytes of model states does each parameter need?',
    options: [],
    correctOptions: [],
    response: '8 bytes',
    correct: false,
    credit: 0,
    expected: '16 bytes',
    ...overrides,
  });
const takeaways = (mastery = 'practising', firstTryCorrect = 1) => [
  {
    id: 'memory-per-parameter',
    title: 'Running needs about 2 bytes per parameter; training about 16.',
    items: 4,
    firstTryCorrect,
    mastery,
  },
  { id: 'compute-6nd', title: 'Training compute ≈ 6 × parameters × tokens.', items: 3, firstTryCorrect: 0, mastery: 'not-started' },
];
const score = (overrides = {}) => ({
  score: 1,
  right: 1,
  max: 13,
  scaled: 1 / 13,
  passed: null,
  completed: false,
  answered: 1,
  set: 'lesson',
  ...overrides,
});

// ── Pure parts ────────────────────────────────────────────────────────────────────────────────

test('ids an LMS accepts: bank ids kept, others cleaned and told apart by a hash, within 255 characters', () => {
  assert.equal(lmsId('run-bytes-per-parameter'), 'run-bytes-per-parameter');
  const spaced = lmsId('a question with spaces');
  assert.match(spaced, /^a_question_with_spaces-[0-9a-z]{6}$/);
  assert.notEqual(lmsId('a b'), lmsId('a_b'), 'cleaning never makes two ids one');
  const long = lmsId('x'.repeat(400));
  assert.equal(long.length, 255);
  assert.notEqual(long, lmsId(`${'x'.repeat(399)}y`));
  assert.match(lmsId('frage-ü'), /^[A-Za-z0-9_.:-]+$/);
  assert.equal(clip('ab😀cd', 4), 'ab…', 'never half a surrogate pair');
  assert.equal(clip('abc', 3), 'abc');
});

test('a question is named by its first sentence, not by a decimal point; LMS language preferences', () => {
  assert.equal(questionName('A model of 1.5 B parameters runs in BF16. How many bytes?'), 'A model of 1.5 B parameters runs in BF16.');
  assert.equal(questionName('Sie führen ein Modell aus?\nWie viele Bytes?'), 'Sie führen ein Modell aus?');
  assert.equal(questionName('x'.repeat(300)).length, 120);
  assert.equal(lmsLanguage('de-DE,en-US'), 'de');
  assert.equal(lmsLanguage('fr-FR, es'), 'es', 'the first the widget has');
  assert.equal(lmsLanguage('German'), 'de');
  assert.equal(lmsLanguage('Español'), 'es');
  assert.equal(lmsLanguage('fr'), null);
  assert.equal(lmsLanguage(''), null);
});

test('without the quiz’s takeaways, the answers so far give each takeaway’s first-try share', () => {
  const states = takeawayStates(score(), [answer(), typed(), answer({ correct: false, credit: 0.5 })]);
  assert.deepEqual(states, [
    {
      id: 'memory-per-parameter',
      title: 'Running needs about 2 bytes per parameter; training about 16.',
      items: 2,
      firstTryCorrect: 1,
      mastery: 'practising',
    },
  ]);
  const given = takeawayStates(score({ takeaways: [...takeaways(), { id: '', items: 1 }, null] }), []);
  assert.deepEqual(
    given.map((state) => state.id),
    ['memory-per-parameter', 'compute-6nd'],
    'malformed entries are left out',
  );
});

// ── SCORM 1.2 ─────────────────────────────────────────────────────────────────────────────────

/** A scorm-again SCORM 1.2 run-time loaded with `record` (what the LMS kept), counting errors. */
function lms12(record = {}) {
  const api = new Scorm12API({ logLevel: 5 });
  api.loadFromJSON(record);
  const errors = [];
  api.on('LMSSetValue', (element, value) => {
    if (String(api.LMSGetLastError()) !== '0') errors.push([element, value, api.LMSGetLastError()]);
  });
  const keep = () => {
    const cmi = api.renderCMIToJSONObject().cmi;
    return {
      interactions: cmi.interactions,
      objectives: cmi.objectives,
      suspend_data: cmi.suspend_data,
      core: { lesson_status: cmi.core.lesson_status },
    };
  };
  return { api, errors, keep, cmi: () => api.renderCMIToJSONObject().cmi };
}

test('SCORM 1.2: two launches; each question one interaction with its latest answer, each takeaway one objective', () => {
  let clock = Date.parse('2026-01-02T03:04:05Z');
  const first = lms12();
  const session = new ScormSession(first.api, () => clock);
  assert.equal(session.start(), true);
  session.quizStorage().save('{"v":1}');
  session.report(score(), answer(), takeaways());
  clock += 60000;
  session.report(score({ score: 1, right: 1, answered: 2, scaled: 1 / 13 }), typed(), takeaways());
  session.finish();
  let cmi = first.cmi();
  assert.deepEqual(Object.keys(cmi.interactions), ['0', '1']);
  assert.deepEqual(
    { ...cmi.interactions[0], time: undefined },
    {
      id: 'run-bytes-per-parameter',
      time: undefined,
      type: 'choice',
      weighting: '1',
      student_response: 'two',
      result: 'correct',
      latency: '00:00:12.34',
      objectives: { 0: { id: 'memory-per-parameter' } },
      correct_responses: { 0: { pattern: 'two' } },
    },
  );
  assert.match(cmi.interactions[0].time, /^\d{2}:\d{2}:\d{2}$/);
  assert.equal(cmi.interactions[1].type, 'fill-in', 'a typed quantity: fill-in');
  assert.equal(cmi.interactions[1].student_response, '8 bytes');
  assert.equal(cmi.interactions[1].correct_responses[0].pattern, '16 bytes');
  assert.equal(cmi.interactions[1].result, 'wrong');
  assert.deepEqual(
    Object.values(cmi.objectives).map((objective) => [objective.id, objective.status, objective.score.raw]),
    [
      ['memory-per-parameter', 'incomplete', '25'],
      ['compute-6nd', 'not attempted', ''],
    ],
  );
  const [quiz, own] = cmi.suspend_data.split('\n');
  assert.equal(quiz, '{"v":1}', 'the quiz’s state first, as it was');
  assert.equal(readInteractionMap(own).length, 2, 'then which question each interaction is');
  assert.equal(session.loadSuspendData(), '', 'finished: nothing read');

  // Launch 2: interactions are write-only in SCORM 1.2; the map in suspend data finds the typed question's record again.
  const second = lms12(first.keep());
  const again = new ScormSession(second.api, () => clock);
  again.start();
  assert.equal(again.loadSuspendData(), '{"v":1}', 'the quiz reads its own state, without the map');
  again.report(
    score({ score: 1.5, right: 2, answered: 2 }),
    typed({ response: '16 bytes', correct: true, credit: 0.5 }),
    takeaways('mastered', 1),
  );
  again.report(
    score({ score: 2.5, right: 3, answered: 3 }),
    answer({ itemId: 'training-flops-6nd', takeaway: 'compute-6nd' }),
    takeaways('mastered', 1),
  );
  cmi = second.cmi();
  assert.deepEqual(Object.keys(cmi.interactions), ['0', '1', '2'], 'the re-answer rewrote its record; the new question took the next');
  assert.equal(cmi.interactions[1].id, 'train-bytes-per-parameter');
  assert.equal(cmi.interactions[1].student_response, '16 bytes');
  assert.equal(cmi.interactions[1].result, 'correct');
  assert.equal(cmi.interactions[2].id, 'training-flops-6nd');
  assert.equal(cmi.objectives[0].status, 'passed', 'mastered: passed');
  assert.equal(cmi.objectives[1].id, 'compute-6nd');
  assert.equal(Object.keys(cmi.objectives).length, 2, 'objectives are found again by id');
  assert.deepEqual([...first.errors, ...second.errors], [], 'every value was valid SCORM 1.2');
});

test('SCORM 1.2: limits: long ids, spaces, long responses and a full suspend data never fail a launch', () => {
  const run = lms12();
  const session = new ScormSession(run.api);
  session.start();
  const long = 'Ω'.repeat(300);
  session.report(
    score(),
    typed({
      itemId: `an author’s item id with spaces ${'y'.repeat(300)}`,
      takeaway: 'a takeaway with spaces',
      response: long,
      expected: long,
    }),
    [{ id: 'a takeaway with spaces', title: long, items: 1, firstTryCorrect: 0, mastery: 'practising' }],
  );
  const cmi = run.cmi();
  assert.ok(cmi.interactions[0].id.length <= 255 && !/\s/.test(cmi.interactions[0].id));
  assert.equal(cmi.interactions[0].student_response.length, 255);
  assert.equal(cmi.interactions[0].correct_responses[0].pattern.length, 255);
  assert.equal(cmi.objectives[0].id, cmi.interactions[0].objectives[0].id, 'the interaction names its objective by the same id');
  // A quiz state that fills suspend data leaves the map out rather than lose the quiz's progress.
  const full = `{"v":1,"x":"${'z'.repeat(4090 - 14)}"}`;
  assert.equal(full.length, 4090);
  session.quizStorage().save(full);
  session.report(score(), answer({ itemId: 'another' }), []);
  assert.equal(run.cmi().suspend_data, full);
  assert.deepEqual(run.errors, []);
});

test('SCORM 1.2: an LMS that lost interactions, or an unreadable map, never overwrites another question’s record', () => {
  const run = lms12({ suspend_data: '{"v":1}\ni:garbage!', interactions: {} });
  const session = new ScormSession(run.api);
  session.start();
  assert.equal(session.loadSuspendData(), '{"v":1}');
  session.report(score(), answer(), []);
  session.report(score(), typed(), []);
  assert.deepEqual(
    Object.values(run.cmi().interactions).map((interaction) => interaction.id),
    ['run-bytes-per-parameter', 'train-bytes-per-parameter'],
  );
  assert.deepEqual(run.errors, []);
});

// ── SCORM 2004 ────────────────────────────────────────────────────────────────────────────────

function lms2004(record = {}) {
  const api = new Scorm2004API({ logLevel: 5 });
  api.loadFromJSON(record);
  const errors = [];
  api.on('SetValue', (element, value) => {
    if (String(api.GetLastError()) !== '0') errors.push([element, value, api.GetLastError()]);
  });
  const cmi = () => api.renderCMIToJSONObject().cmi;
  return {
    api,
    errors,
    cmi,
    keep: () => ({ interactions: cmi().interactions, objectives: cmi().objectives, suspend_data: cmi().suspend_data }),
  };
}

test('SCORM 2004: two launches; interactions with learner_response, description, result, latency; objectives with mastery', () => {
  const first = lms2004();
  const session = new Scorm2004Session(first.api, () => Date.parse('2026-01-02T03:04:05.678Z'));
  session.start();
  session.report(
    score(),
    answer({ language: 'de', prompt: 'Sie führen ein Modell in BF16 aus. Wie viele Bytes?', options: [{ id: 'two', text: '2 Bytes' }] }),
    takeaways(),
  );
  session.report(score({ answered: 2 }), typed({ language: 'de', response: '8 Bytes', expected: '16 Bytes' }), takeaways());
  let cmi = first.cmi();
  const choice = cmi.interactions[0];
  assert.equal(choice.id, 'run-bytes-per-parameter');
  assert.equal(choice.type, 'choice');
  assert.equal(choice.learner_response, 'two');
  assert.equal(choice.correct_responses[0].pattern, 'two');
  assert.equal(choice.result, 'correct');
  assert.equal(choice.weighting, '1');
  assert.equal(choice.latency, 'PT12.34S');
  assert.equal(choice.timestamp, '2026-01-02T03:04:05.67Z');
  assert.equal(choice.description, '{lang=de}Sie führen ein Modell in BF16 aus. Wie viele Bytes?');
  assert.equal(choice.objectives[0].id, 'memory-per-parameter');
  const fill = cmi.interactions[1];
  assert.equal(fill.type, 'fill-in');
  assert.equal(fill.learner_response, '{lang=de}8 Bytes');
  assert.equal(fill.correct_responses[0].pattern, '{lang=de}16 Bytes');
  assert.equal(fill.result, 'incorrect');
  const memory = cmi.objectives[0];
  assert.deepEqual(
    [memory.id, memory.success_status, memory.completion_status, memory.progress_measure, memory.score.scaled, memory.score.raw],
    ['memory-per-parameter', 'unknown', 'incomplete', '0.5', '0.25', '25'],
  );
  assert.equal(
    memory.description,
    '{lang=en}Running needs about 2 bytes per parameter; training about 16.'.replace('{lang=en}', '{lang=de}'),
  );
  assert.equal(cmi.objectives[1].completion_status, 'not attempted');
  session.finish();

  const second = lms2004(first.keep());
  const again = new Scorm2004Session(second.api);
  again.start();
  again.report(score(), typed({ response: '16 bytes', correct: true, credit: 0.5 }), takeaways('mastered', 2));
  cmi = second.cmi();
  assert.equal(Object.keys(cmi.interactions).length, 2, 'the re-answer found its record by id');
  assert.equal(cmi.interactions[1].learner_response, '{lang=en}16 bytes');
  assert.equal(cmi.interactions[1].result, 'correct');
  assert.deepEqual(
    [
      cmi.objectives[0].success_status,
      cmi.objectives[0].completion_status,
      cmi.objectives[0].progress_measure,
      cmi.objectives[0].score.scaled,
    ],
    ['passed', 'completed', '1', '0.5'],
  );
  again.report(score(), answer({ correct: false, credit: 0 }), takeaways('practising', 0));
  cmi = second.cmi();
  assert.equal(cmi.objectives[0].success_status, 'passed', 'an objective never steps back');
  assert.equal(cmi.objectives[0].score.scaled, '0.5');
  assert.equal(Object.keys(cmi.objectives).length, 2);
  assert.deepEqual([...first.errors, ...second.errors], [], 'every value was valid SCORM 2004');
});

test('SCORM 2004: limits: responses, descriptions and ids clipped, "[,]" and a leading "{" made harmless', () => {
  const run = lms2004();
  const session = new Scorm2004Session(run.api);
  session.start();
  const text = `{odd} ${'ü'.repeat(300)} [,] end`;
  session.report(score(), typed({ itemId: 'with spaces '.repeat(40), prompt: `${text}\nsecond line`, response: text, expected: text }), [
    { id: 'x y', title: text, items: 0, firstTryCorrect: 0, mastery: 'not-started' },
  ]);
  const interaction = run.cmi().interactions[0];
  assert.ok(interaction.learner_response.length <= '{lang=en}'.length + 250);
  assert.ok(!interaction.learner_response.slice('{lang=en}'.length).startsWith('{'));
  assert.ok(!interaction.description.includes('\n'));
  assert.deepEqual(run.errors, []);
});

// ── xAPI, checked by Learning Locker's validator ──────────────────────────────────────────────

/** Every statement as the host forwards it (with the learner as actor): no warning from xapi-validation. */
function assertValid(statement, label) {
  const warnings = validate({ ...statement, actor: statement.actor ?? LEARNER });
  assert.deepEqual(
    warnings.map((warning) => `${warning.path.join('.')}: ${warning.name}`),
    [],
    `${label}: ${JSON.stringify(statement).slice(0, 400)}`,
  );
}

test('xAPI: answers in German and Spanish are tagged so, named by their words, and name their takeaway as an objective', () => {
  const detail = score({ takeaways: takeaways() });
  const [german] = statementsFor({
    ...detail,
    answer: answer({ language: 'de', prompt: 'Sie führen ein Modell aus. Wie viele Bytes?', options: [{ id: 'two', text: '2 Bytes' }] }),
  });
  assert.deepEqual(german.object.definition.name, { de: 'Sie führen ein Modell aus.' });
  assert.deepEqual(german.object.definition.description, { de: 'Sie führen ein Modell aus. Wie viele Bytes?' });
  assert.deepEqual(german.object.definition.choices, [{ id: 'two', description: { de: '2 Bytes' } }]);
  assert.equal(german.result.duration, 'PT12.34S');
  const [objective] = german.context.contextActivities.grouping;
  assert.equal(objective.id, 'urn:trainscope:quiz:abc123/objective/memory-per-parameter');
  assert.equal(objective.definition.type, 'http://adlnet.gov/expapi/activities/objective');
  assert.deepEqual(objective.definition.name, { de: takeaways()[0].title });
  const [spanish] = statementsFor({
    ...detail,
    answer: typed({ language: 'es', prompt: '¿Cuántos bytes necesita?', response: '8 bytes', expected: '16 bytes' }),
  });
  assert.deepEqual(spanish.object.definition.name, { es: '¿Cuántos bytes necesita?' });
  assert.deepEqual(spanish.object.definition.correctResponsesPattern, ['16 bytes']);
  for (const statement of [german, spanish]) assertValid(statement, 'answered');
  const completing = statementsFor({ ...detail, completed: true, passed: true, answer: answer({ completesQuiz: true, language: 'es' }) });
  assert.deepEqual(
    completing.map((statement) => statement.verb.id.split('/').at(-1)),
    ['answered', 'completed', 'passed'],
  );
  for (const statement of completing) assertValid(statement, statement.verb.id);
  const failing = statementsFor({ ...detail, completed: true, passed: false, answer: answer({ completesQuiz: true, revealed: true }) });
  for (const statement of failing) assertValid(statement, statement.verb.id);
});

test('xAPI: mastery of a takeaway is a "mastered" statement about its objective, valid', () => {
  const statement = masteryStatement('abc123', takeaways('mastered', 3)[0], 'es', { activity: 'https://course.example/quiz/' });
  assert.equal(statement.verb.id, 'http://adlnet.gov/expapi/verbs/mastered');
  assert.equal(statement.object.id, 'https://course.example/quiz/objective/memory-per-parameter');
  assert.deepEqual(statement.object.definition.name, { es: takeaways()[0].title });
  assert.deepEqual(statement.result, { success: true, completion: true, score: { scaled: 0.75, raw: 3, min: 0, max: 4 } });
  assert.deepEqual(statement.context.contextActivities.parent, [{ objectType: 'Activity', id: 'https://course.example/quiz' }]);
  assertValid(statement, 'mastered');
});

test('cmi5: every statement the AU sends, the mastered one included, passes the validator; the language preference is read', async () => {
  const sent = [];
  const fetchImpl = async (url, init = {}) => {
    const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.startsWith('https://lms.example/fetch')) return json({ 'auth-token': 'dG9rZW4=' });
    if (url.includes('/agents/profile')) return json({ languagePreference: 'fr-FR,es-ES', audioPreference: 'on' });
    if (url.includes('stateId=LMS.LaunchData')) {
      return json({
        launchMode: 'Normal',
        moveOn: 'CompletedAndPassed',
        masteryScore: 0.5,
        contextTemplate: {
          contextActivities: { grouping: [{ objectType: 'Activity', id: 'https://lms.example/course' }] },
          extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': 'session-1' },
        },
      });
    }
    if (url.includes('/activities/state'))
      return init.method === 'PUT' ? new Response(null, { status: 204 }) : new Response('', { status: 404 });
    if (url.endsWith('/statements')) {
      sent.push(JSON.parse(init.body));
      return json([sent.at(-1).id]);
    }
    return new Response('', { status: 404 });
  };
  const activity = 'https://lms.example/au/1';
  const session = new Cmi5Session(
    {
      endpoint: 'https://lms.example/lrs/',
      fetchUrl: 'https://lms.example/fetch',
      actor: LEARNER,
      registration: 'b4a1e2c0-2f7a-4c49-9a57-0d1a4b6c7e21',
      activityId: activity,
    },
    fetchImpl,
  );
  assert.equal(await session.start(), true);
  assert.equal(session.preferredLanguage(), 'es', 'the first language of the preference the widget has');
  const detail = score({ takeaways: takeaways('mastered', 3), completed: true, passed: true, scaled: 0.9, score: 9, max: 10 });
  for (const statement of statementsFor({ ...detail, answer: answer({ completesQuiz: true, language: 'es' }) }, { activity }))
    session.forward(statement, detail);
  session.forward(masteryStatement('abc123', takeaways('mastered', 3)[0], 'es', { activity }), detail);
  await session.finish();
  assert.deepEqual(
    sent.map((statement) => statement.verb.id.split('/').at(-1)),
    ['initialized', 'answered', 'completed', 'passed', 'mastered', 'terminated'],
  );
  const answered = sent[1];
  assert.deepEqual(
    answered.context.contextActivities.grouping.map((entry) => entry.id),
    ['https://lms.example/course', `${activity}/objective/memory-per-parameter`],
    'the LMS’s grouping kept, the takeaway added',
  );
  assert.deepEqual(sent[4].context.contextActivities.grouping, [{ objectType: 'Activity', id: 'https://lms.example/course' }]);
  for (const statement of sent) assertValid(statement, statement.verb.id);
});

test('an LMS that refuses interactions, or whose API throws, still gets the score, and the launch goes on', () => {
  const values = new Map([['cmi.core.lesson_status', 'not attempted']]);
  const calls = [];
  const refusing = {
    LMSInitialize: () => 'true',
    LMSFinish: () => 'true',
    LMSGetValue: (element) => values.get(element) ?? '',
    LMSSetValue: (element, value) => {
      calls.push(element);
      if (element.startsWith('cmi.interactions.')) return 'false';
      if (element.startsWith('cmi.objectives.')) throw new Error('not implemented');
      values.set(element, value);
      return 'true';
    },
    LMSCommit: () => 'true',
    LMSGetLastError: () => '0',
    LMSGetErrorString: () => '',
    LMSGetDiagnostic: () => '',
  };
  const session = new ScormSession(refusing);
  assert.equal(session.start(), true);
  session.quizStorage().save('{"v":1}');
  assert.doesNotThrow(() => session.report(score(), answer(), takeaways()));
  session.report(score({ score: 2, scaled: 2 / 13 }), typed(), takeaways());
  assert.equal(values.get('cmi.core.score.raw'), String(Math.round(200 / 13)));
  assert.equal(values.get('cmi.suspend_data'), '{"v":1}', 'no map for records the LMS refused');
  assert.deepEqual(
    calls.filter((element) => element.startsWith('cmi.interactions.')),
    ['cmi.interactions.0.id', 'cmi.interactions.0.id'],
    'a refused record is tried once per answer, at the same index, and nothing more is sent for it',
  );
});
