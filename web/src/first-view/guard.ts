// Runs in the page's <head>, before the first view is parsed (inlined by web/build.mjs, allowed by
// its hash in the page's Content-Security-Policy): a link that opens a scenario or a language never
// shows the default's figures first.
import { FIRST_VIEW_REFUSED_ATTRIBUTE, refusesFirstView } from './first-view';

if (refusesFirstView(window.location)) document.documentElement.setAttribute(FIRST_VIEW_REFUSED_ATTRIBUTE, '');
