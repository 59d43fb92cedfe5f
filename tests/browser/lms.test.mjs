// Issue 13, "Their LMS and their analytics", in Debian's Chromium: the xAPI statements the widget
// dispatches to its host page; the SCORM 2004 4th Edition package in scorm-again's real SCORM 2004
// run-time (launch, resume, score, completion, never stepping back); the cmi5 package against a
// fake LMS and LRS answered by request interception on an https origin of its own (no network).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../../web/serve.mjs';
import { closeServerAfter, distDir, repoRoot, until } from './harness.mjs';
import { packageManifest, unzip } from './packages.mjs';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const STRICT_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
const bank = JSON.parse(readFileSync(join(repoRoot, 'web', 'quiz', 'bank.json'), 'utf8'));
/** The questions the widget asks by default: the bank's lesson set (docs/quiz.md, "Sets"). */
const lessonItems = bank.items.filter((item) => (item.set ?? 'lesson') === 'lesson');
const choiceItems = bank.items.filter((item) => item.kind === 'single_choice');
const [firstItem, secondItem, thirdItem] = choiceItems;
const rightOption = (item) => item.options.find((option) => option.correct).id;
const wrongOption = (item) => item.options.find((option) => !option.correct).id;
const fixture = (name) => readFileSync(join(repoRoot, 'tests', 'browser', 'fixtures-lms', name), 'utf8');
const scormAgain2004 = readFileSync(join(repoRoot, 'node_modules', 'scorm-again', 'dist', 'scorm2004.js'));
const VERB = (name) => `http://adlnet.gov/expapi/verbs/${name}`;
const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
test.after(() => browser.close());

async function newContext(t, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, ...options });
  t.after(() => context.close());
  return context;
}

/** A page that records console errors and page errors. */
async function watchedPage(context) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    // An LRS answers 404 for a state document not written yet (xAPI Communication §2.3); Chromium logs it.
    if (message.type() === 'error' && !(message.text().includes('404') && /\/lrs\/(activities\/state|agents\/profile)/.test(message.location().url))) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, problems };
}

async function serve(t, options) {
  const served = await serveDirectory(distDir, 0, options);
  closeServerAfter(t, served.server);
  return served;
}

/** Picks `option` of the single-choice `item` in `scope` and checks it; waits for the verdict. */
async function answer(scope, item, option) {
  const question = scope.locator(`.ts-quiz-item[data-item-id="${item.id}"]`);
  // Not there until the quiz is prepared (near the viewport or idle), which isHidden() also reports.
  await question.waitFor({ state: 'attached', timeout: 20000 });
  if (await question.isHidden()) await scope.locator('.ts-quiz-mode').click();
  await question.locator(`input[value="${option}"]`).check();
  await question.getByRole('button', { name: 'Check answer' }).click();
  const expected = option === rightOption(item) ? 'correct' : 'incorrect';
  await until(() => question.getAttribute('data-status'), (status) => status === expected);
}

function statusOf(scope, item) {
  return scope.locator(`.ts-quiz-item[data-item-id="${item.id}"]`).getAttribute('data-status');
}

/** A saved quiz state (web/src/quiz/state.ts) with every item as `rest` except those in `keep`. */
function savedState(rest, keep = {}) {
  const entries = { correct: [0, 1, 'c', 1, 0, 1], revealed: [0, 0, 'r', -1, 0, 1, 1] };
  const items = {};
  for (const item of bank.items) items[item.id] = Object.hasOwn(keep, item.id) ? keep[item.id] : entries[rest];
  for (const id of Object.keys(items)) if (items[id] === null) delete items[id];
  return JSON.stringify({ v: 1, m: 'a', c: null, i: items });
}

/** An answer's result without its duration (the time the learner took, which a test cannot fix). */
function withoutDuration(result) {
  const { duration, ...rest } = result;
  assert.match(duration, /^PT/);
  return rest;
}

// ── xAPI: statements as DOM events ────────────────────────────────────────────────────────────

test('the element dispatches xAPI statements for a right answer, a wrong one and the completion, out of its shadow root', async (t) => {
  const { url } = await serve(t, {
    headers: { 'content-security-policy': STRICT_CSP },
    extra: {
      '/host/xapi.html': { type: 'text/html; charset=utf-8', body: fixture('xapi-host.html') },
      '/host/xapi-listener.js': { type: 'text/javascript', body: fixture('xapi-listener.js') },
    },
  });
  const context = await newContext(t);
  const { page, problems } = await watchedPage(context);
  const requests = [];
  context.on('request', (request) => requests.push(request.url()));
  await page.goto(`${url}host/xapi.html`);
  const widget = page.locator('trainscope-widget');
  await widget.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  const statements = () => page.evaluate(() => window.statements);

  await answer(widget, firstItem, rightOption(firstItem));
  let seen = await until(statements, (list) => list.length === 1);
  const right = seen[0];
  const quizIri = right.statement.object.id.replace(/\/item\/.*$/, '');
  assert.match(quizIri, /^urn:trainscope:quiz:[0-9a-f]+$/, 'the quiz is named by its bank’s id');
  const bankId = quizIri.split(':').at(-1);
  assert.equal(await page.evaluate(() => window.answers[0].bank), bankId, 'the trainscope-answer event names the bank too');
  assert.equal(right.target, 'trainscope-widget', 'the event left the shadow root and reached the page from the element');
  assert.match(right.statement.id, UUID);
  assert.ok(!Number.isNaN(Date.parse(right.statement.timestamp)));
  assert.equal(right.statement.verb.id, VERB('answered'));
  assert.equal(right.statement.actor, undefined, 'the widget does not know the learner: the host adds the actor');
  assert.equal(right.statement.object.id, `${quizIri}/item/${firstItem.id}`);
  assert.equal(right.statement.object.definition.type, 'http://adlnet.gov/expapi/activities/cmi.interaction');
  assert.equal(right.statement.object.definition.interactionType, 'choice');
  assert.deepEqual(right.statement.object.definition.correctResponsesPattern, [rightOption(firstItem)]);
  assert.deepEqual(withoutDuration(right.statement.result), { success: true, response: rightOption(firstItem), score: { scaled: 1, raw: 1, min: 0, max: 1 } });
  assert.match(right.statement.result.duration, /^PT(\d+H)?(\d+M)?\d+(\.\d{1,2})?S$/, 'how long the learner took');
  assert.deepEqual(right.statement.object.definition.name, { en: firstItem.prompt.split(/(?<=[.?!])\s/)[0] }, 'named by its words, in English');
  assert.equal(right.statement.context.contextActivities.grouping[0].id, `${quizIri}/objective/${firstItem.takeaway}`, 'its takeaway, as an objective');
  assert.deepEqual(right.statement.context.contextActivities.parent, [{ objectType: 'Activity', id: quizIri }]);

  await answer(widget, secondItem, wrongOption(secondItem));
  seen = await until(statements, (list) => list.length === 2);
  assert.equal(seen[1].statement.verb.id, VERB('answered'));
  assert.equal(seen[1].statement.object.id, `${quizIri}/item/${secondItem.id}`, 'the same item always has the same IRI');
  assert.deepEqual(withoutDuration(seen[1].statement.result), { success: false, response: wrongOption(secondItem), score: { scaled: 0, raw: 0, min: 0, max: 1 } });

  // Every other solution already seen (0 points each): the third answer completes the quiz below the pass mark.
  await page.evaluate(([key, state]) => {
    const saved = JSON.parse(localStorage.getItem(key));
    const rest = JSON.parse(state);
    for (const [id, entry] of Object.entries(rest.i)) saved.i[id] = entry;
    localStorage.setItem(key, JSON.stringify(saved));
  }, [`trainscope-quiz:${bankId}`, savedState('revealed', { [firstItem.id]: null, [secondItem.id]: null, [thirdItem.id]: null })]);
  await page.reload();
  await widget.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  assert.equal(await statusOf(widget, firstItem), 'correct');
  await answer(widget, thirdItem, rightOption(thirdItem));
  // The first and third questions check the same takeaway, both right at the first try: two in a
  // row master it (docs/quiz.md, "Practice and mastery"), which is a statement of its own.
  seen = await until(() => statements().then((list) => list.map((entry) => entry.statement.verb.id.split('/').at(-1))), (verbs) => verbs.length === 4)
    .then(() => statements());
  const [answered, completed, failed, mastered] = seen.map((entry) => entry.statement);
  assert.equal(firstItem.takeaway, thirdItem.takeaway, 'the bank still puts the first and third choice questions under one takeaway');
  assert.equal(mastered.verb.id, VERB('mastered'));
  assert.equal(mastered.object.id, `${quizIri}/objective/${thirdItem.takeaway}`);
  const lastScore = await page.evaluate(() => window.scores.at(-1));
  assert.equal(answered.verb.id, VERB('answered'));
  assert.equal(completed.verb.id, VERB('completed'));
  assert.equal(completed.object.id, quizIri);
  assert.equal(completed.object.definition.type, 'http://adlnet.gov/expapi/activities/assessment');
  const score = { scaled: Math.round(lastScore.scaled * 10000) / 10000, raw: lastScore.score, min: 0, max: lessonItems.length };
  assert.equal(lastScore.score, 2, 'two questions right at the first try, the rest shown');
  assert.deepEqual(completed.result, { completion: true, success: false, score }, 'the score is the one the score event carries');
  assert.equal(failed.verb.id, VERB('failed'), 'below the pass mark of 0.5');
  assert.deepEqual(failed.result, { completion: true, success: false, score });
  assert.ok(requests.every((address) => address.startsWith(url)), `the widget contacted no server: ${requests.filter((address) => !address.startsWith(url))}`);
  assert.deepEqual(problems, []);
});

test('the iframe page’s statements reach the host page through the host script; malformed ones do not', async (t) => {
  const { url } = await serve(t, {
    headers: { 'content-security-policy': STRICT_CSP.replace("default-src 'none'", "default-src 'none'; frame-src 'self'") },
    extra: {
      '/host/iframe.html': { type: 'text/html; charset=utf-8', body: fixture('iframe-host.html') },
      '/host/xapi-listener.js': { type: 'text/javascript', body: fixture('xapi-listener.js') },
    },
  });
  const context = await newContext(t);
  const { page, problems } = await watchedPage(context);
  await page.goto(`${url}host/iframe.html`);
  const frame = page.frameLocator('iframe');
  await frame.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  // A statement out of shape, posted from inside the frame, is dropped by the host script.
  await page.frames()[1].evaluate(() => window.parent.postMessage({ type: 'trainscope:xapi', statement: { id: 'x', timestamp: 'now', verb: { id: 'javascript:1' }, object: { objectType: 'Activity', id: 'a' } } }, '*'));
  await answer(frame.locator('body'), firstItem, rightOption(firstItem));
  // Messages from one window arrive in order: had the forged one been relayed, it would come first.
  const seen = await until(() => page.evaluate(() => window.statements), (list) => list.length >= 1);
  assert.equal(seen.length, 1, 'only the widget’s own statement');
  assert.equal(seen[0].target, 'iframe');
  assert.equal(seen[0].statement.verb.id, VERB('answered'));
  assert.ok(seen[0].statement.object.id.endsWith(`/item/${firstItem.id}`));
  assert.deepEqual(seen[0].statement.result.score, { scaled: 1, raw: 1, min: 0, max: 1 });
  assert.deepEqual(problems, []);
});

test('the builds other than cmi5 carry no LRS client', () => {
  for (const name of ['trainscope.html', 'trainscope.js', 'embed/trainscope-widget.js', 'embed/trainscope-engine.js', 'iframe/trainscope-iframe.js']) {
    const text = readFileSync(join(distDir, name), 'utf8');
    assert.ok(!text.includes('LMS.LaunchData'), `${name} holds no cmi5 code`);
    assert.ok(!text.includes('X-Experience-API-Version'), `${name} holds no xAPI request`);
  }
  for (const zip of ['trainscope-scorm12.zip', 'trainscope-scorm2004.zip']) {
    const page = readFileSync(join(unzip(join(distDir, zip)), 'index.html'), 'utf8');
    assert.ok(!page.includes('LMS.LaunchData'), `${zip} holds no cmi5 code`);
    // The policy itself, not the page's words (a message tells authors about connect-src).
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1];
    assert.ok(policy?.startsWith("default-src 'none'"), `${zip} carries its strict CSP`);
    assert.doesNotMatch(policy, /connect-src/, `${zip}: the strict CSP (default-src 'none') forbids connections`);
  }
});

// ── SCORM 2004 4th Edition ────────────────────────────────────────────────────────────────────

test('the SCORM 2004 package has a 4th Edition manifest naming only files it carries', async (t) => {
  const page = await (await newContext(t)).newPage();
  const { files, report } = await packageManifest(page, 'trainscope-scorm2004.zip', {
    cp: 'http://www.imsglobal.org/xsd/imscp_v1p1',
    adlcp: 'http://www.adlnet.org/xsd/adlcp_v1p3',
    scormType: 'scormType',
  });
  assert.deepEqual(files, ['imsmanifest.xml', 'index.html']);
  assert.equal(report.parseError, false);
  assert.equal(report.root, 'http://www.imsglobal.org/xsd/imscp_v1p1 manifest');
  assert.equal(report.schema, 'ADL SCORM');
  assert.equal(report.schemaVersion, '2004 4th Edition');
  assert.ok(report.defaultOrganization);
  assert.ok(report.itemPointsToResource);
  assert.equal(report.scormType, 'sco', 'adlcp:scormType (camel case in 2004, unlike 1.2)');
  assert.equal(report.type, 'webcontent');
  assert.ok(report.named.includes('index.html'));
  for (const name of report.named) assert.ok(files.includes(name), `${name} (named by the manifest) is in the zip`);
});

/** Serves the unzipped SCORM 2004 SCO under /sco/ and an LMS page running scorm-again's SCORM 2004 run-time under /lms/. */
async function launch2004(t, record) {
  const folder = unzip(join(distDir, 'trainscope-scorm2004.zip'));
  const { url } = await serve(t, {
    extra: {
      '/lms/index.html': { type: 'text/html; charset=utf-8', body: fixture('scorm2004-lms.html') },
      '/lms/scorm2004-lms.js': { type: 'text/javascript', body: fixture('scorm2004-lms.js') },
      '/lms/scorm2004.js': { type: 'text/javascript', body: scormAgain2004 },
      '/sco/index.html': { type: 'text/html; charset=utf-8', body: readFileSync(join(folder, 'index.html')) },
    },
  });
  const context = await newContext(t);
  const watched = await watchedPage(context);
  await watched.page.goto(`${url}lms/index.html`);
  await watched.page.evaluate((start) => window.launch(start), record);
  const sco = watched.page.frameLocator('#sco');
  await sco.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  const lms = (name) => watched.page.evaluate((key) => window[key], name);
  return { ...watched, sco, lms };
}

async function leave(page) {
  const before = await page.evaluate(() => window.lmsTerminated);
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction((count) => window.lmsTerminated === count + 1, before);
}

test('SCORM 2004: launch, score, location, suspend data, one Commit per answer, Terminate, resume', async (t) => {
  const { page, problems, sco, lms } = await launch2004(t, {});
  assert.equal((await lms('lmsRecord')).completion_status, 'incomplete', 'a launch marks the SCO incomplete');
  const commitsBefore = await lms('lmsCommits');
  await answer(sco.locator('body'), firstItem, rightOption(firstItem));
  assert.equal(await lms('lmsCommits') - commitsBefore, 1, 'one answer, one Commit');
  const record = await lms('lmsRecord');
  assert.equal(record.score.scaled, String(Math.round(10000 / lessonItems.length) / 10000));
  assert.equal(record.score.raw, String(Math.round(100 / lessonItems.length)));
  assert.equal(record.score.min, '0');
  assert.equal(record.score.max, '100');
  assert.equal(record.completion_status, 'incomplete');
  assert.equal(record.success_status, 'unknown', 'no pass mark, no verdict');
  assert.equal(record.location, firstItem.id, 'cmi.location: the last question answered');
  assert.ok(record.suspend_data.length > 0);

  await leave(page);
  const left = await lms('lmsRecord');
  assert.equal(left.exit, 'suspend', 'suspended, so the LMS resumes this attempt');
  assert.match(left.session_time, /^PT(\d+H)?(\d+M)?\d+(\.\d{1,2})?S$/);
  // The LMS launches the SCO again (cmi.entry "resume") with the record it kept.
  await page.evaluate(() => window.launch());
  await sco.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  assert.equal(await statusOf(sco.locator('body'), firstItem), 'correct', 'progress comes back from cmi.suspend_data');
  assert.deepEqual(await lms('lmsErrors'), [], 'every SetValue was valid SCORM 2004');
  assert.deepEqual(problems, []);
});

test('SCORM 2004: the last answer completes and passes against cmi.scaled_passing_score', async (t) => {
  const { problems, sco, lms } = await launch2004(t, {
    scaled_passing_score: '0.8',
    suspend_data: savedState('correct', { [firstItem.id]: null }),
  });
  await answer(sco.locator('body'), firstItem, rightOption(firstItem));
  const record = await lms('lmsRecord');
  assert.equal(record.completion_status, 'completed');
  assert.equal(record.success_status, 'passed');
  assert.equal(record.score.scaled, '1');
  assert.deepEqual(await lms('lmsErrors'), []);
  assert.deepEqual(problems, []);
});

test('SCORM 2004: completed and passed stay so, with the best score, when a later session does worse', async (t) => {
  const { page, problems, sco, lms } = await launch2004(t, {
    completion_status: 'completed',
    success_status: 'passed',
    score: { scaled: '0.95', raw: '95', min: '0', max: '100' },
    scaled_passing_score: '0.8',
    exit: 'suspend',
    suspend_data: savedState('revealed', { [firstItem.id]: null }),
  });
  await answer(sco.locator('body'), firstItem, wrongOption(firstItem));
  await page.waitForFunction(() => window.lmsCommits > 0);
  await leave(page);
  const record = await lms('lmsRecord');
  assert.equal(record.completion_status, 'completed');
  assert.equal(record.success_status, 'passed', 'never failed after passed');
  assert.equal(record.score.scaled, '0.95', 'the best score stays');
  const sets = (await lms('lmsSets')).filter(([element]) => /^cmi\.(completion_status|success_status|score\.)/.test(element));
  assert.deepEqual(sets, [], 'the SCO did not even try to set a lower status or score');
  assert.deepEqual(problems, []);
});

// ── cmi5 ──────────────────────────────────────────────────────────────────────────────────────

const LMS = 'https://lms.example';
const ACTIVITY = `${LMS}/courses/trainscope/au/self-check`;
const ACTOR = { objectType: 'Agent', name: 'Ada Learner', account: { homePage: LMS, name: 'ada' } };
const TOKEN = 'QWxhZGRpbjpvcGVuIHNlc2FtZQ==';

/**
 * A fake cmi5 LMS and its LRS: the one-time auth-token fetch URL, the State API (LMS.LaunchData
 * and the AU's own document) and the statements resource, answered by request interception on
 * https://lms.example. Everything else is refused and recorded.
 */
function fakeLms({ masteryScore = 0.8, launchMode = 'Normal', languagePreference = null } = {}) {
  const lms = { statements: [], states: new Map(), violations: [], sessions: [], tokensIssued: 0 };
  const registration = 'b4a1e2c0-2f7a-4c49-9a57-0d1a4b6c7e21';
  lms.registration = registration;
  lms.launchUrl = () => {
    const sessionId = crypto.randomUUID();
    lms.sessions.push(sessionId);
    lms.fetchUsed = false;
    const query = new URLSearchParams({
      endpoint: `${LMS}/lrs/`,
      fetch: `${LMS}/fetch/${sessionId}`,
      actor: JSON.stringify(ACTOR),
      registration,
      activityId: ACTIVITY,
    });
    return `${LMS}/au/index.html?${query}`;
  };
  const au = readFileSync(join(unzip(join(distDir, 'trainscope-cmi5.zip')), 'index.html'));
  lms.route = async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const json = (status, body) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    if (url.origin !== LMS) {
      lms.violations.push(`request outside the LMS: ${url.href}`);
      return route.abort();
    }
    if (url.pathname === '/au/index.html') return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: au });
    if (url.pathname.startsWith('/fetch/')) {
      if (request.method() !== 'POST') lms.violations.push('the fetch URL was not POSTed');
      if (lms.fetchUsed) return json(200, { 'error-code': '1', 'error-text': 'already used' });
      lms.fetchUsed = true;
      lms.tokensIssued += 1;
      return json(200, { 'auth-token': TOKEN });
    }
    if (request.headers().authorization !== `Basic ${TOKEN}`) lms.violations.push(`no auth token on ${request.method()} ${url.pathname}`);
    if (request.headers()['x-experience-api-version'] !== '1.0.3') lms.violations.push(`no xAPI version header on ${url.pathname}`);
    if (url.pathname === '/lrs/activities/state') {
      const { stateId, activityId, agent, registration: reg } = Object.fromEntries(url.searchParams);
      if (activityId !== ACTIVITY || reg !== registration || JSON.stringify(JSON.parse(agent)) !== JSON.stringify(ACTOR)) {
        lms.violations.push(`state request for the wrong activity, registration or agent: ${url.search}`);
      }
      if (stateId === 'LMS.LaunchData' && request.method() === 'GET') {
        return json(200, {
          contextTemplate: {
            contextActivities: { grouping: [{ objectType: 'Activity', id: `${LMS}/courses/trainscope` }] },
            extensions: { [SESSION_EXTENSION]: lms.sessions.at(-1) },
          },
          launchMode,
          moveOn: 'CompletedAndPassed',
          ...(masteryScore === null ? {} : { masteryScore }),
          returnURL: `${LMS}/courses/trainscope`,
        });
      }
      if (request.method() === 'GET') return lms.states.has(stateId) ? json(200, lms.states.get(stateId)) : route.fulfill({ status: 404, body: '' });
      if (request.method() === 'PUT') {
        lms.states.set(stateId, JSON.parse(request.postData()));
        return route.fulfill({ status: 204, body: '' });
      }
    }
    if (url.pathname === '/lrs/agents/profile' && request.method() === 'GET') {
      // The learner's preferences (cmi5 §11): the LMS may have none for this learner.
      if (url.searchParams.get('profileId') !== 'cmi5LearnerPreferences' || JSON.stringify(JSON.parse(url.searchParams.get('agent'))) !== JSON.stringify(ACTOR)) {
        lms.violations.push(`agent profile request for the wrong profile or agent: ${url.search}`);
      }
      return languagePreference === null ? route.fulfill({ status: 404, body: '' }) : json(200, { languagePreference, audioPreference: 'on' });
    }
    if (url.pathname === '/lrs/statements' && request.method() === 'POST') {
      const statement = JSON.parse(request.postData());
      lms.statements.push({ session: lms.sessions.at(-1), statement });
      return json(200, [statement.id]);
    }
    lms.violations.push(`unexpected ${request.method()} ${url.href}`);
    return route.fulfill({ status: 404, body: '' });
  };
  lms.verbs = (session) => lms.statements.filter((entry) => entry.session === session).map((entry) => entry.statement.verb.id.split('/').at(-1));
  return lms;
}

async function launchAu(t, lms) {
  const context = await newContext(t);
  await context.route('**/*', lms.route);
  const watched = await watchedPage(context);
  await watched.page.goto(lms.launchUrl());
  await watched.page.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  return { ...watched, context, session: lms.sessions.at(-1) };
}

/**
 * Leaves the AU and waits for its "terminated" to reach the LRS. The pagehide is dispatched by
 * hand: a request a page starts while it unloads (keepalive) is not routed through Playwright's
 * interception, so the fake LRS could not see it; what the AU does on pagehide is the same.
 */
async function leaveAu(page, lms, session) {
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false })));
  await until(() => lms.verbs(session), (verbs) => verbs.at(-1) === 'terminated');
  await page.goto('about:blank');
}

function checkCmi5Statement(entry, lms) {
  const { statement, session } = entry;
  const verb = statement.verb.id.split('/').at(-1);
  assert.match(statement.id, UUID);
  assert.ok(!Number.isNaN(Date.parse(statement.timestamp)), `${verb} has a timestamp`);
  assert.deepEqual(statement.actor, ACTOR, `${verb}: the launch's actor`);
  assert.equal(statement.context.registration, lms.registration, `${verb}: the registration`);
  assert.equal(statement.context.extensions[SESSION_EXTENSION], session, `${verb}: the session id from the context template`);
  assert.deepEqual(statement.context.contextActivities.grouping[0], { objectType: 'Activity', id: `${LMS}/courses/trainscope` }, `${verb}: the template's grouping`);
  // An answer adds its takeaway as an objective after the LMS's grouping (issue 34); other statements add nothing.
  const added = statement.context.contextActivities.grouping.slice(1);
  if (verb === 'answered') {
    assert.equal(added.length, 1, 'an answer names its takeaway');
    assert.equal(added[0].definition.type, 'http://adlnet.gov/expapi/activities/objective');
    assert.ok(added[0].id.startsWith(`${ACTIVITY}/objective/`));
  } else {
    assert.deepEqual(added, [], `${verb}: the template's grouping only`);
  }
  const categories = (statement.context.contextActivities.category ?? []).map((category) => category.id);
  if (verb === 'answered' || verb === 'mastered') {
    assert.ok(!categories.includes(CMI5_CATEGORY), 'a cmi5 allowed statement has no cmi5 category');
    assert.ok(statement.object.id.startsWith(`${ACTIVITY}/${verb === 'answered' ? 'item' : 'objective'}/`), `${verb}: an item or a takeaway of this AU`);
  } else {
    assert.ok(categories.includes(CMI5_CATEGORY), `${verb}: the cmi5 category`);
    assert.equal(statement.object.id, ACTIVITY, `${verb}: about the AU`);
    assert.equal(categories.includes(MOVEON_CATEGORY), ['completed', 'passed', 'failed'].includes(verb), `${verb}: moveon category only on completed, passed, failed`);
    if (verb !== 'initialized') assert.match(statement.result.duration, /^PT/, `${verb} carries a duration`);
  }
}

test('cmi5: launch, answers, resume from the State API, completion and pass to the LMS’s LRS, terminate', async (t) => {
  const lms = fakeLms();
  // Session 1: initialized, one answer, terminated; the quiz's progress goes to the AU's state document.
  const first = await launchAu(t, lms);
  assert.equal(lms.tokensIssued, 1);
  await until(() => lms.verbs(first.session), (verbs) => verbs[0] === 'initialized');
  await answer(first.page.locator('body'), firstItem, rightOption(firstItem));
  await until(() => lms.verbs(first.session), (verbs) => verbs.length === 2);
  const answered = lms.statements.at(-1).statement;
  assert.equal(answered.object.id, `${ACTIVITY}/item/${firstItem.id}`);
  assert.deepEqual(withoutDuration(answered.result), { success: true, response: rightOption(firstItem), score: { scaled: 1, raw: 1, min: 0, max: 1 } });
  await until(() => lms.states.get('trainscope-cmi5')?.quiz ?? '', (quiz) => quiz.includes(firstItem.id));
  await leaveAu(first.page, lms, first.session);
  assert.deepEqual(lms.verbs(first.session), ['initialized', 'answered', 'terminated']);

  // Between sessions every other question gets answered right (as if in other sessions): the next answer completes.
  const kept = JSON.parse(lms.states.get('trainscope-cmi5').quiz);
  lms.states.set('trainscope-cmi5', { ...lms.states.get('trainscope-cmi5'),
    quiz: savedState('correct', { [firstItem.id]: kept.i[firstItem.id], [secondItem.id]: null }) });
  const second = await launchAu(t, lms);
  assert.equal(await statusOf(second.page.locator('body'), firstItem), 'correct', 'progress comes back from the State API');
  await answer(second.page.locator('body'), secondItem, wrongOption(secondItem));
  await until(() => lms.verbs(second.session), (verbs) => verbs.includes('passed'));
  await leaveAu(second.page, lms, second.session);
  assert.deepEqual(lms.verbs(second.session), ['initialized', 'answered', 'completed', 'passed', 'terminated']);
  const byVerb = (verb) => lms.statements.find((entry) => entry.session === second.session && entry.statement.verb.id === VERB(verb)).statement;
  assert.deepEqual(Object.keys(byVerb('completed').result).sort(), ['completion', 'duration'], 'cmi5 completed: completion and duration only');
  assert.equal(byVerb('passed').result.success, true);
  const expectedScaled = Math.round(((lessonItems.length - 1) / lessonItems.length) * 10000) / 10000;
  assert.deepEqual(byVerb('passed').result.score, { scaled: expectedScaled, raw: lessonItems.length - 1, min: 0, max: lessonItems.length });
  assert.equal(byVerb('passed').context.extensions['https://w3id.org/xapi/cmi5/context/extensions/masteryscore'], 0.8);
  assert.deepEqual(lms.states.get('trainscope-cmi5').completed, true);
  assert.deepEqual(lms.states.get('trainscope-cmi5').passed, true);

  for (const entry of lms.statements) checkCmi5Statement(entry, lms);
  assert.deepEqual(lms.violations, []);
  assert.deepEqual([...first.problems, ...second.problems], []);
});

test('cmi5: after a pass, a retake that scores low sends no completed, passed or failed again', async (t) => {
  const lms = fakeLms();
  lms.states.set('trainscope-cmi5', { quiz: savedState('revealed', { [firstItem.id]: null }), completed: true, passed: true });
  const session = await launchAu(t, lms);
  await answer(session.page.locator('body'), firstItem, wrongOption(firstItem));
  await until(() => lms.verbs(session.session), (verbs) => verbs.includes('answered'));
  await leaveAu(session.page, lms, session.session);
  assert.deepEqual(lms.verbs(session.session), ['initialized', 'answered', 'terminated'],
    'one completed and one passed per registration, and no failed after a pass (cmi5 §9.3)');
  for (const entry of lms.statements) checkCmi5Statement(entry, lms);
  assert.deepEqual(lms.violations, []);
  assert.deepEqual(session.problems, []);
});

test('cmi5: a failing completion sends failed once; Browse mode sends no verdicts', async (t) => {
  const lms = fakeLms();
  lms.states.set('trainscope-cmi5', { quiz: savedState('revealed', { [firstItem.id]: null }), completed: false, passed: false });
  const session = await launchAu(t, lms);
  await answer(session.page.locator('body'), firstItem, wrongOption(firstItem));
  await until(() => lms.verbs(session.session), (verbs) => verbs.includes('failed'));
  await leaveAu(session.page, lms, session.session);
  assert.deepEqual(lms.verbs(session.session), ['initialized', 'answered', 'completed', 'failed', 'terminated']);
  const failed = lms.statements.find((entry) => entry.statement.verb.id === VERB('failed')).statement;
  assert.equal(failed.result.success, false);
  assert.equal(failed.result.score.scaled, 0);

  const browse = fakeLms({ launchMode: 'Browse' });
  browse.states.set('trainscope-cmi5', { quiz: savedState('correct', { [firstItem.id]: null }), completed: false, passed: false });
  const browsing = await launchAu(t, browse);
  await answer(browsing.page.locator('body'), firstItem, rightOption(firstItem));
  await until(() => browse.verbs(browsing.session), (verbs) => verbs.includes('answered'));
  await leaveAu(browsing.page, browse, browsing.session);
  assert.deepEqual(browse.verbs(browsing.session), ['initialized', 'answered', 'terminated'], 'Browse mode: no completed, passed or failed (cmi5 §10.2.2)');
  for (const entry of [...lms.statements]) checkCmi5Statement(entry, lms);
  assert.deepEqual([...lms.violations, ...browse.violations], []);
  assert.deepEqual([...session.problems, ...browsing.problems], []);
});

test('cmi5: a mastered takeaway is a cmi5 allowed "mastered" statement; every statement passes Learning Locker’s validator', async (t) => {
  const lms = fakeLms();
  const session = await launchAu(t, lms);
  await answer(session.page.locator('body'), firstItem, rightOption(firstItem));
  // The practice part of the quiz announces a mastered takeaway with this event (docs/quiz.md); here the test does.
  await session.page.locator('.ts-quiz-item').first().evaluate((element, takeaway) => {
    element.dispatchEvent(new CustomEvent('trainscope-mastery', { bubbles: true, composed: true, detail: { takeaway } }));
  }, { id: firstItem.takeaway, title: bank.takeaways.find((entry) => entry.id === firstItem.takeaway).text, items: 5, firstTryCorrect: 1, mastery: 'mastered' });
  await until(() => lms.verbs(session.session), (verbs) => verbs.includes('mastered'));
  await leaveAu(session.page, lms, session.session);
  assert.deepEqual(lms.verbs(session.session), ['initialized', 'answered', 'mastered', 'terminated']);
  const mastered = lms.statements.find((entry) => entry.statement.verb.id === VERB('mastered')).statement;
  assert.equal(mastered.object.id, `${ACTIVITY}/objective/${firstItem.takeaway}`);
  assert.deepEqual(mastered.result.score, { scaled: 0.2, raw: 1, min: 0, max: 5 });
  const { default: imported } = await import('xapi-validation');
  const validate = imported.default ?? imported;
  for (const entry of lms.statements) {
    checkCmi5Statement(entry, lms);
    assert.deepEqual(validate(entry.statement).map((warning) => `${warning.path.join('.')}: ${warning.name}`), [], entry.statement.verb.id);
  }
  assert.deepEqual(lms.violations, []);
  assert.deepEqual(session.problems, []);
});

test('cmi5: the AU speaks the learner’s languagePreference when the widget has it, else its own', async (t) => {
  const german = fakeLms({ languagePreference: 'fr-FR,de-DE' });
  const session = await launchAu(t, german);
  assert.equal(await session.page.locator('.ts-root').first().getAttribute('lang'), 'de', 'the first language of the preference the widget has');
  await leaveAu(session.page, german, session.session);
  const french = fakeLms({ languagePreference: 'fr-FR' });
  const other = await launchAu(t, french);
  assert.equal(await other.page.locator('.ts-root').first().getAttribute('lang'), 'en');
  await leaveAu(other.page, french, other.session);
  assert.deepEqual([...german.violations, ...french.violations], []);
  assert.deepEqual([...session.problems, ...other.problems], []);
});

test('cmi5: opened without launch parameters, the AU is the plain page and contacts nobody', async (t) => {
  const lms = fakeLms();
  const context = await newContext(t);
  await context.route('**/*', lms.route);
  const { page, problems } = await watchedPage(context);
  const requests = [];
  context.on('request', (request) => requests.push(request.url()));
  await page.goto(`${LMS}/au/index.html`);
  await page.locator('[data-ts-quiz-ready]').waitFor({ timeout: 20000 });
  await answer(page.locator('body'), firstItem, rightOption(firstItem));
  assert.deepEqual(requests, [`${LMS}/au/index.html`]);
  assert.deepEqual(lms.statements, []);
  assert.deepEqual(problems, []);
});
