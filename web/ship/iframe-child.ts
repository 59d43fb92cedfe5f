// Inside the iframe page: tell the host how tall the widget is, and pass quiz scores on.
// The host script (iframe-host.js) checks that messages come from its own iframe.

import type { ScoreDetail } from '../src/quiz/types';

/** What reportToHost gives back: a way to stop, and a way to report the height now. */
export interface HostReport {
  stop: () => void;
  /**
   * Sends the height if it changed. The ResizeObserver's reports wait for a rendered frame, and
   * Chromium renders no frames for a cross-origin (or sandboxed) iframe scrolled out of view, so
   * the page calls this once the widget is drawn: the host sizes the frame before it is seen.
   */
  sendHeight: () => void;
}

/** Starts reporting. A no-op when the page is not framed. */
export function reportToHost(content: HTMLElement, target: Window = window.parent): HostReport {
  if (target === window) return { stop: () => {}, sendHeight: () => {} };
  // The score is not secret and the host's origin is unknown here: '*' lets any host listen;
  // the host, not we, decides which frames to trust (by event.source).
  const post = (message: object) => {
    try {
      target.postMessage(message, '*');
    } catch {
      // A host that went away mid-navigation.
    }
  };
  let lastHeight = -1;
  const sendHeight = () => {
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    post({ type: 'trainscope:height', height });
  };
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(sendHeight) : null;
  observer?.observe(content);
  sendHeight();
  const onScore = (event: Event) => {
    const detail = (event as CustomEvent<ScoreDetail>).detail;
    if (detail) post({ type: 'trainscope:score', ...detail });
  };
  content.addEventListener('trainscope-score', onScore);
  // xAPI statements (web/ship/xapi.ts) cross the frame too; the host script re-dispatches them.
  const onStatement = (event: Event) => {
    const statement = (event as CustomEvent<unknown>).detail;
    if (statement) post({ type: 'trainscope:xapi', statement });
  };
  content.addEventListener('trainscope-xapi', onStatement);
  // A mastered takeaway (docs/quiz.md, "Practice and mastery") crosses as its own message.
  const onMastery = (event: Event) => {
    const detail = (event as CustomEvent<{ takeaway?: unknown }>).detail;
    if (detail?.takeaway) post({ type: 'trainscope:mastery', takeaway: detail.takeaway });
  };
  content.addEventListener('trainscope-mastery', onMastery);
  const stop = () => {
    observer?.disconnect();
    content.removeEventListener('trainscope-score', onScore);
    content.removeEventListener('trainscope-xapi', onStatement);
    content.removeEventListener('trainscope-mastery', onMastery);
  };
  return { stop, sendHeight };
}
