// cmi5 Assignable Unit (AU): the one place where the widget talks to a server, and only to the
// LMS's own LRS, named in the launch URL by the LMS that launched it (docs/embedding.md, "cmi5").
// The page, the offline file, the element and the iframe never load this module.
// Reference: cmi5 specification (AICC/ADL, "Quartz"), §8 (launch: endpoint, fetch, actor,
// registration, activityId), §9 (statement requirements), §10 (LMS.LaunchData state document);
// xAPI 1.0.3 Communication §2 (statements and state resources, version header).
import type { ScoreDetail } from '../src/quiz/types';
import type { Language } from '../src/i18n/i18n';
import { formatDuration, lmsLanguage } from './report';
import { quizScore, uuid, VERBS, XAPI_VERSION, type XapiContext, type XapiResult, type XapiStatement } from './xapi';

export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
export const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
export const MASTERY_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
/** How long the launch may take before the quiz starts without the LMS (an LRS that never answers). */
const LAUNCH_TIMEOUT_MS = 15000;
/** Where this AU keeps the quiz's progress and what it already reported, per registration. */
export const AU_STATE_ID = 'trainscope-cmi5';

export interface Cmi5Launch {
  endpoint: string;
  fetchUrl: string;
  actor: Record<string, unknown>;
  registration: string;
  activityId: string;
}

export interface LaunchData {
  contextTemplate: XapiContext;
  launchMode: 'Normal' | 'Browse' | 'Review';
  moveOn: string;
  masteryScore: number | null;
  returnURL: string | null;
}

interface AuState {
  quiz: string | null;
  completed: boolean;
  passed: boolean;
}

/** The five launch parameters (§8.1), or null when any is missing or malformed: then there is no LMS. */
export function readLaunch(search: string): Cmi5Launch | null {
  const params = new URLSearchParams(search);
  const endpoint = params.get('endpoint');
  const fetchUrl = params.get('fetch');
  const actorText = params.get('actor');
  const registration = params.get('registration');
  const activityId = params.get('activityId');
  if (!endpoint || !fetchUrl || !actorText || !registration || !activityId) return null;
  let actor: unknown;
  try {
    actor = JSON.parse(actorText);
  } catch {
    return null;
  }
  if (!actor || typeof actor !== 'object' || Array.isArray(actor)) return null;
  if (!/^https?:\/\//i.test(endpoint) || !/^https?:\/\//i.test(fetchUrl)) return null;
  return {
    endpoint: endpoint.endsWith('/') ? endpoint : `${endpoint}/`,
    fetchUrl,
    actor: actor as Record<string, unknown>,
    registration,
    activityId,
  };
}

/** Reads LMS.LaunchData (§10.2.1); unknown or missing fields take the spec's meaning of absence. */
export function readLaunchData(value: unknown): LaunchData {
  const data = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const template = data.contextTemplate && typeof data.contextTemplate === 'object' ? (data.contextTemplate as XapiContext) : {};
  const mode = data.launchMode === 'Browse' || data.launchMode === 'Review' ? data.launchMode : 'Normal';
  const mastery = typeof data.masteryScore === 'number' && data.masteryScore >= 0 && data.masteryScore <= 1 ? data.masteryScore : null;
  return {
    contextTemplate: template,
    launchMode: mode,
    moveOn: typeof data.moveOn === 'string' ? data.moveOn : 'NotApplicable',
    masteryScore: mastery,
    returnURL: typeof data.returnURL === 'string' ? data.returnURL : null,
  };
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;
type Activities = NonNullable<XapiContext['contextActivities']>;

/** The LMS's context activities (its grouping: the course) with the statement's added, not replaced. */
export function mergeActivities(template: Activities, own: Activities): Activities {
  const merged: Activities = { ...template };
  for (const [key, list] of Object.entries(own)) {
    const before = (merged[key] ?? []) as { id: string }[];
    const added = (list as { id: string }[]).filter((activity) => !before.some((known) => known.id === activity.id));
    merged[key] = [...before, ...added] as Activities[string];
  }
  return merged;
}

/** The cmi5 agent profile with the learner's preferences (§11: languagePreference, audioPreference). */
export const LEARNER_PREFERENCES = 'cmi5LearnerPreferences';

/** Aborts a launch request that hangs; undefined where AbortSignal.timeout is missing (Safari < 16). */
function launchSignal(): AbortSignal | undefined {
  return typeof AbortSignal !== 'undefined' && typeof AbortSignal.timeout === 'function'
    ? AbortSignal.timeout(LAUNCH_TIMEOUT_MS)
    : undefined;
}

/** One AU session: launch, statements in order, progress in the State API, terminate. */
export class Cmi5Session {
  private readonly launch: Cmi5Launch;
  private readonly fetchImpl: Fetch;
  private readonly now: () => number;
  private readonly startedAt: number;
  private readonly sessionId: string;
  private auth = '';
  private data: LaunchData | null = null;
  private state: AuState = { quiz: null, completed: false, passed: false };
  private failedThisSession = false;
  private languagePreference = '';
  private active = false;
  private terminated = false;
  /** Requests go one after another, so the LRS receives statements in the order they happened. */
  private queue: Promise<unknown> = Promise.resolve();
  private inFlight = 0;
  private warned = false;

  constructor(launch: Cmi5Launch, fetchImpl: Fetch = (input, init) => fetch(input, init), now: () => number = () => Date.now()) {
    this.launch = launch;
    this.fetchImpl = fetchImpl;
    this.now = now;
    this.startedAt = now();
    this.sessionId = uuid();
  }

  get connected(): boolean {
    return this.active;
  }

  /** Fetches the auth token, reads LMS.LaunchData and the saved progress, sends "initialized". */
  async start(): Promise<boolean> {
    try {
      const tokenResponse = await this.fetchImpl(this.launch.fetchUrl, { method: 'POST', signal: launchSignal() });
      const token = (await tokenResponse.json()) as Record<string, unknown>;
      if (!tokenResponse.ok || typeof token['auth-token'] !== 'string')
        throw new Error(`the fetch URL gave no auth-token (${String(token['error-text'] ?? tokenResponse.status)})`);
      this.auth = `Basic ${token['auth-token']}`;
      const launchData = await this.getState('LMS.LaunchData', true);
      this.data = readLaunchData(launchData);
      const saved = await this.getState(AU_STATE_ID, false);
      if (saved && typeof saved === 'object') {
        const record = saved as Record<string, unknown>;
        this.state = {
          quiz: typeof record.quiz === 'string' ? record.quiz : null,
          completed: record.completed === true,
          passed: record.passed === true,
        };
      }
      this.languagePreference = await this.readLanguagePreference();
      this.active = true;
      this.send(this.statement(VERBS.initialized, undefined, true));
      return true;
    } catch (error) {
      this.warn(error);
      return false;
    }
  }

  /** The learner's languagePreference from the LMS ("de-DE,en-US"), '' when none; never fails the launch. */
  private async readLanguagePreference(): Promise<string> {
    try {
      const query = new URLSearchParams({ agent: JSON.stringify(this.launch.actor), profileId: LEARNER_PREFERENCES });
      const response = await this.fetchImpl(`${this.launch.endpoint}agents/profile?${query.toString()}`, {
        method: 'GET',
        headers: this.headers(false),
        signal: launchSignal(),
      });
      if (!response.ok) return '';
      const profile = (await response.json()) as Record<string, unknown> | null;
      return typeof profile?.languagePreference === 'string' ? profile.languagePreference : '';
    } catch {
      return '';
    }
  }

  /** The language the LMS's learner preferences ask for, when the widget has it; else null. */
  preferredLanguage(): Language | null {
    return lmsLanguage(this.languagePreference);
  }

  /** The LMS's mastery score (0..1), the quiz's pass mark in this registration, or null. */
  passMark(): number | null {
    return this.data?.masteryScore ?? null;
  }

  quizStorage(): { load(): string | null; save(state: string): void } {
    return {
      load: () => this.state.quiz,
      save: (quiz: string) => {
        if (!this.active || quiz === this.state.quiz) return;
        this.state = { ...this.state, quiz };
        this.saveState();
      },
    };
  }

  /**
   * Sends what a `trainscope-xapi` statement (web/ship/xapi.ts) stands for in cmi5: answers as
   * "cmi5 allowed" statements; completion, pass and fail as "cmi5 defined" ones about the AU,
   * under the rules that keep the LMS record from stepping back (§9.3): one "completed" and one
   * "passed" per registration, no "failed" after a pass, at most one "failed" per session, and
   * none of the three outside Normal launch mode; in Review mode, no answers either.
   */
  forward(statement: XapiStatement, detail: ScoreDetail | null): void {
    if (!this.active || this.terminated || !this.data) return;
    const mode = this.data.launchMode;
    const verb = statement.verb.id;
    if (verb === VERBS.answered.id || verb === VERBS.mastered.id) {
      if (mode === 'Review') return;
      // The statement's object and parent already name this AU (cmi5-entry passes activityId as the quiz's activity).
      const context = this.context(false);
      context.contextActivities = mergeActivities(context.contextActivities ?? {}, statement.context?.contextActivities ?? {});
      this.send({ ...statement, actor: this.launch.actor, context });
      return;
    }
    if (mode !== 'Normal' || !detail) return;
    const duration = formatDuration(this.now() - this.startedAt);
    if (verb === VERBS.completed.id && !this.state.completed) {
      this.state = { ...this.state, completed: true };
      this.send(this.statement(VERBS.completed, { completion: true, duration }, true, true));
      this.saveState();
    } else if (verb === VERBS.passed.id && !this.state.passed) {
      this.state = { ...this.state, passed: true };
      this.send(this.statement(VERBS.passed, { success: true, score: quizScore(detail), duration }, true, true));
      this.saveState();
    } else if (verb === VERBS.failed.id && !this.state.passed && !this.failedThisSession) {
      this.failedThisSession = true;
      this.send(this.statement(VERBS.failed, { success: false, score: quizScore(detail), duration }, true, true));
    }
  }

  /** Sends "terminated" (§9.3.8): the last statement of the session. keepalive lets it outlive the page. */
  finish(): Promise<unknown> {
    if (!this.active || this.terminated) return this.queue;
    this.send(this.statement(VERBS.terminated, { duration: formatDuration(this.now() - this.startedAt) }, true));
    this.terminated = true;
    return this.queue;
  }

  /**
   * The context every statement of this session carries: the LMS's template, the registration,
   * and (for cmi5 defined statements) the cmi5 category.
   */
  private context(defined: boolean, moveOn = false): XapiContext {
    const template = this.data?.contextTemplate ?? {};
    const activities = { ...(template.contextActivities ?? {}) } as NonNullable<XapiContext['contextActivities']>;
    if (defined) {
      const categories = [...((activities.category as { id: string }[] | undefined) ?? [])];
      categories.push({ id: CMI5_CATEGORY, objectType: 'Activity' } as { id: string });
      if (moveOn) categories.push({ id: MOVEON_CATEGORY, objectType: 'Activity' } as { id: string });
      activities.category = categories;
    }
    const extensions = { ...(template.extensions ?? {}) };
    // The template carries the LMS's session id; only without one does this AU supply its own.
    if (!(SESSION_EXTENSION in extensions)) extensions[SESSION_EXTENSION] = this.sessionId;
    return { ...template, registration: this.launch.registration, contextActivities: activities, extensions };
  }

  private statement(verb: XapiStatement['verb'], result: XapiResult | undefined, defined: boolean, moveOn = false): XapiStatement {
    const context = this.context(defined, moveOn);
    if (
      (verb.id === VERBS.passed.id || verb.id === VERBS.failed.id) &&
      this.data?.masteryScore !== null &&
      this.data?.masteryScore !== undefined
    ) {
      context.extensions = { ...context.extensions, [MASTERY_EXTENSION]: this.data.masteryScore };
    }
    const statement: XapiStatement = {
      id: uuid(),
      timestamp: new Date(this.now()).toISOString(),
      actor: this.launch.actor,
      verb,
      object: { objectType: 'Activity', id: this.launch.activityId },
      context,
    };
    if (result) statement.result = result;
    return statement;
  }

  private headers(json: boolean): Record<string, string> {
    const headers: Record<string, string> = { Authorization: this.auth, 'X-Experience-API-Version': XAPI_VERSION };
    if (json) headers['Content-Type'] = 'application/json';
    return headers;
  }

  private stateUrl(stateId: string): string {
    const query = new URLSearchParams({
      stateId,
      activityId: this.launch.activityId,
      agent: JSON.stringify(this.launch.actor),
      registration: this.launch.registration,
    });
    return `${this.launch.endpoint}activities/state?${query.toString()}`;
  }

  private async getState(stateId: string, required: boolean): Promise<unknown> {
    const response = await this.fetchImpl(this.stateUrl(stateId), { method: 'GET', headers: this.headers(false), signal: launchSignal() });
    if (response.status === 404 && !required) return null;
    if (!response.ok) throw new Error(`the LRS refused the state ${stateId} (HTTP ${response.status})`);
    return response.json();
  }

  private saveState(): void {
    const body = JSON.stringify(this.state);
    this.enqueue(() =>
      this.fetchImpl(this.stateUrl(AU_STATE_ID), { method: 'PUT', headers: this.headers(true), body, keepalive: body.length < 60000 }),
    );
  }

  private send(statement: XapiStatement): void {
    const body = JSON.stringify(statement);
    this.enqueue(() =>
      this.fetchImpl(`${this.launch.endpoint}statements`, { method: 'POST', headers: this.headers(true), body, keepalive: true }),
    );
  }

  /**
   * Starts `request` at once when nothing is in flight (on pagehide, a request started later may
   * never leave the page), else after the one before it, so the LRS gets statements in order and
   * "terminated" last.
   */
  private enqueue(request: () => Promise<Response>): void {
    const run = () =>
      request()
        .then((response) => {
          if (!response.ok) throw new Error(`the LRS answered HTTP ${response.status}`);
        })
        .catch((error: unknown) => this.warn(error))
        .finally(() => {
          this.inFlight -= 1;
        });
    this.queue = this.inFlight === 0 ? run() : this.queue.then(run);
    this.inFlight += 1;
  }

  private warn(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    console.warn(
      'trainscope (cmi5): the LMS’s LRS could not be reached or refused a request; the quiz works, but the LMS may not record it:',
      error instanceof Error ? error.message : error,
    );
  }
}
