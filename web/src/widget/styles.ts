// The widget's stylesheet where its document lacks it: adopted from the script's own copy (CSP-safe,
// in shadow roots too), or linked from beside the script.

import { h } from '../dom/dom';
import { scriptUrl } from '../i18n/packs';

declare const TRAINSCOPE_CSS: string;

/** True when the document already carries the widget's stylesheet (the page's <link>, or the single file's <style>). */
export function documentHasStyles(doc: Document = document): boolean {
  return doc.querySelector('link[rel="stylesheet"][href$="trainscope.css"], style[data-trainscope-styles]') !== null;
}

/**
 * The stylesheet for a root whose document lacks it. The element's script carries it as text
 * (adopted: CSP-safe, in shadow roots too); the page's script does not (its page links it, and
 * the copy cost the English page 7 KB gzipped), so a host mounting the page's script elsewhere
 * gets trainscope.css from beside the script, as a <link> (style-src 'self'), waited for.
 */
export function adoptStyles(root: HTMLElement | ShadowRoot): Promise<void> {
  const host = root instanceof ShadowRoot ? root : (root.getRootNode() as Document | ShadowRoot);
  const css = typeof TRAINSCOPE_CSS === 'string' ? TRAINSCOPE_CSS : '';
  if (!css) return linkStyles(host);
  if ('adoptedStyleSheets' in host && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    // Constructed stylesheets are not subject to CSP's style-src and work in shadow roots. One
    // sheet serves every widget of the page: parsing the stylesheet cost 10-20 ms per widget.
    const sheet = sharedSheet(css);
    if (!host.adoptedStyleSheets.includes(sheet)) host.adoptedStyleSheets = [...host.adoptedStyleSheets, sheet];
    return Promise.resolve();
  }
  const parent = host instanceof ShadowRoot ? host : document.head;
  if (!parent.querySelector('style[data-trainscope]')) parent.appendChild(h('style', { 'data-trainscope': 'true' }, css));
  return Promise.resolve();
}

let constructedSheet: CSSStyleSheet | null = null;

/** The stylesheet, parsed once for the page (a constructed sheet is adopted by any root of its document). */
function sharedSheet(css: string): CSSStyleSheet {
  if (!constructedSheet) {
    constructedSheet = new CSSStyleSheet();
    constructedSheet.replaceSync(css);
  }
  return constructedSheet;
}

function linkStyles(host: Document | ShadowRoot): Promise<void> {
  const parent = host instanceof ShadowRoot ? host : document.head;
  if (parent.querySelector('link[rel="stylesheet"][href$="trainscope.css"]')) return Promise.resolve();
  const link = h('link', { rel: 'stylesheet', href: new URL('trainscope.css', scriptUrl || document.baseURI).href });
  // A stylesheet that fails to load leaves the widget unstyled but working: never a failed mount.
  const loaded = new Promise<void>((done) => {
    link.addEventListener('load', () => done(), { once: true });
    link.addEventListener('error', () => done(), { once: true });
  });
  parent.appendChild(link);
  return loaded;
}
