// The page's first view (docs/page.md): dist/index.html and the offline file open with the default
// scenario's opening sections as the widget drew them at build time (web/prerender.mjs), so a
// computed figure paints before the engine's script has even run. The widget replaces it once built.

/** Marks the first view's root in the built page. */
export const FIRST_VIEW_ATTRIBUTE = 'data-ts-first-view';

/**
 * Set on <html> by the head's guard when the address asks for something other than the default
 * first view; trainscope.css then hides the first view, and the widget removes it at once.
 */
export const FIRST_VIEW_REFUSED_ATTRIBUTE = 'data-ts-first-view-refused';

/**
 * True when the first view would show the wrong thing: any hash (a scenario, a playhead, or an
 * anchor the page cannot judge before its script runs) or a chosen language.
 */
export function refusesFirstView(address: { hash: string; search: string }): boolean {
  return address.hash.length > 1 || /[?&]lang=/.test(address.search);
}
