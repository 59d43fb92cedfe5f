// Where the quiz keeps progress. The default is localStorage, reached defensively: in a
// sandboxed iframe, from file:// or with cookies blocked, merely reading `window.localStorage`
// throws, and a full quota throws on write. The quiz must work the same either way, so every
// access is guarded and a failure only means progress lasts as long as the page.

import type { QuizStorage } from './types';

export const STORAGE_PREFIX = 'trainscope-quiz';

/** "trainscope-quiz:<bankId>" or "trainscope-quiz:<bankId>:<instanceKey>". */
export function storageKey(bankId: string, instanceKey?: string): string {
  return instanceKey ? `${STORAGE_PREFIX}:${bankId}:${instanceKey}` : `${STORAGE_PREFIX}:${bankId}`;
}

export interface GuardedStorage extends QuizStorage {
  /** False once a load or save has failed: progress will not outlive the page. */
  readonly persistent: boolean;
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

/** localStorage under `key`; `getStorage` is how to reach it (a getter that may throw). */
export function localStorageAdapter(key: string, getStorage: () => Storage | null | undefined = () => globalThis.localStorage): QuizStorage {
  return {
    load: () => {
      const storage = getStorage();
      return storage ? storage.getItem(key) : null;
    },
    save: (state) => {
      const storage = getStorage();
      if (!storage) throw new Error('no localStorage');
      storage.setItem(key, state);
    },
  };
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
      if (saved) return memory;
      try {
        const value = storage.load();
        return typeof value === 'string' ? value : null;
      } catch {
        persistent = false;
        return null;
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
  };
}
