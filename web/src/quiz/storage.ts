// Where the quiz keeps progress. The default is localStorage, reached defensively: in a
// sandboxed iframe, from file:// or with cookies blocked, merely reading `window.localStorage`
// throws, and a full quota throws on write. The quiz must work the same either way, so every
// access is guarded and a failure only means progress lasts as long as the page.
//
// Keys (docs/quiz.md, "Where progress is kept"): "trainscope-quiz:<bankId>" for every widget
// without an id, "trainscope-quiz:<bankId>:<id>" for one with an id. The key never depends on
// how many widgets a page has, so adding a widget to a page keeps everyone's progress. Widgets
// and tabs that share a key merge their answers item by item (state.ts, mergeProgress) instead
// of overwriting each other. Earlier versions keyed the n-th of several id-less widgets
// "…:position-n": those states are still read, merged in, and removed once the merge is saved.

import type { QuizStorage } from './types';

export const STORAGE_PREFIX = 'trainscope-quiz';

/** "trainscope-quiz:<bankId>" or "trainscope-quiz:<bankId>:<instanceKey>". */
export function storageKey(bankId: string, instanceKey?: string): string {
  return instanceKey ? `${STORAGE_PREFIX}:${bankId}:${instanceKey}` : `${STORAGE_PREFIX}:${bankId}`;
}

/** Keys an earlier version wrote for what is now `storageKey(bankId)`: one per widget position. */
export function legacyKeys(bankId: string, existingKeys: readonly string[]): string[] {
  const prefix = `${STORAGE_PREFIX}:${bankId}:position-`;
  return existingKeys.filter((key) => key.startsWith(prefix) && /^\d+$/.test(key.slice(prefix.length)));
}

export interface GuardedStorage extends QuizStorage {
  /** False once a load or save has failed: progress will not outlive the page. */
  readonly persistent: boolean;
  loadLegacy(): string[];
  subscribe(listener: () => void): () => void;
}

/** Keeps the state in memory only (the fallback, and handy in tests). */
export function memoryStorage(initial: string | null = null): QuizStorage {
  let saved = initial;
  return {
    load: () => saved,
    save: (state) => {
      saved = state;
    },
  };
}

/** Quizzes of this document by key: a `storage` event reaches other documents only. */
const sameDocumentListeners = new Map<string, Set<() => void>>();

/**
 * localStorage under `key`; `getStorage` is how to reach it (a getter that may throw);
 * `events` is where other tabs' `storage` events arrive (the window).
 * With `migrate`, also reads the earlier version's position keys of that bank.
 */
export function localStorageAdapter(
  key: string,
  getStorage: () => Storage | null | undefined = () => globalThis.localStorage,
  options: { legacyOf?: string; events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null } = {},
): QuizStorage {
  const events = options.events === undefined ? (typeof window === 'undefined' ? null : window) : options.events;
  let legacy: string[] = [];
  // True while this adapter tells the page's other quizzes of its own save.
  let saving = false;
  return {
    load: () => {
      const storage = getStorage();
      return storage ? storage.getItem(key) : null;
    },
    loadLegacy: () => {
      const storage = getStorage();
      if (!storage || options.legacyOf === undefined) return [];
      const keys: string[] = [];
      for (let index = 0; index < storage.length; index += 1) {
        const name = storage.key(index);
        if (name !== null) keys.push(name);
      }
      legacy = legacyKeys(options.legacyOf, keys);
      return legacy.map((name) => storage.getItem(name)).filter((value): value is string => typeof value === 'string');
    },
    save: (state) => {
      const storage = getStorage();
      if (!storage) throw new Error('no localStorage');
      storage.setItem(key, state);
      // The earlier version's states are now part of this one.
      for (const name of legacy) storage.removeItem(name);
      legacy = [];
      saving = true;
      try {
        for (const listener of [...(sameDocumentListeners.get(key) ?? [])]) listener();
      } finally {
        saving = false;
      }
    },
    subscribe: (listener) => {
      const fromOtherTab = (event: Event) => {
        const changed = (event as StorageEvent).key;
        if (changed === key || changed === null) listener();
      };
      events?.addEventListener('storage', fromOtherTab);
      const local = sameDocumentListeners.get(key) ?? new Set<() => void>();
      sameDocumentListeners.set(key, local);
      // A quiz does not hear its own saves.
      const wrapped = () => {
        if (!saving) listener();
      };
      local.add(wrapped);
      return () => {
        events?.removeEventListener('storage', fromOtherTab);
        local.delete(wrapped);
      };
    },
  };
}

/** The quiz's default storage: localStorage under the stable key, reading the earlier keys too. */
export function defaultQuizStorage(bankId: string, instanceKey?: string): QuizStorage {
  return localStorageAdapter(storageKey(bankId, instanceKey), () => globalThis.localStorage, {
    legacyOf: instanceKey ? undefined : bankId,
  });
}

/**
 * Wraps any storage (the default one, or a host's adapter such as SCORM's) so that it can
 * neither throw into the quiz nor hand it anything but a string or null. A memory copy keeps
 * the latest state, so a storage that fails after loading loses nothing during the visit.
 */
export function guardStorage(storage: QuizStorage): GuardedStorage {
  let persistent = true;
  let memory: string | null = null;
  let saved = false;
  return {
    get persistent() {
      return persistent;
    },
    load() {
      // Read every time: another tab or widget may have saved since (the quiz merges).
      if (saved && !persistent) return memory;
      try {
        const value = storage.load();
        if (typeof value === 'string') return value;
        return saved ? memory : null;
      } catch {
        persistent = false;
        return saved ? memory : null;
      }
    },
    loadLegacy() {
      try {
        const values = storage.loadLegacy?.() ?? [];
        return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
      } catch {
        return [];
      }
    },
    save(state) {
      memory = state;
      saved = true;
      try {
        storage.save(state);
      } catch {
        persistent = false;
      }
    },
    subscribe(listener) {
      try {
        const stop = storage.subscribe?.(() => {
          try {
            listener();
          } catch {
            // A listener's failure must not reach the storage event's dispatcher.
          }
        });
        return typeof stop === 'function'
          ? () => {
              try {
                stop();
              } catch {
                /* gone already */
              }
            }
          : () => {};
      } catch {
        return () => {};
      }
    },
  };
}
