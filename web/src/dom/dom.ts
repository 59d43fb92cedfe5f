// The one DOM builder of the page and the quiz, and its in-place setters. Elements are made with
// properties and CSSOM (never style="…" markup), so the page runs under a CSP without
// 'unsafe-inline', inside a shadow root or a document. Text always goes in as text nodes
// (question text is data, never markup); every id comes from uniqueId.

export type Child = Node | string | number | null | undefined | false | Child[];

export interface Attributes {
  [name: string]: string | number | boolean | null | undefined | Record<string, string> | ((event: Event) => void);
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes?: Attributes | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (attributes) {
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'style' && typeof value === 'object') {
        for (const [property, propertyValue] of Object.entries(value)) element.style.setProperty(property, propertyValue);
      } else if (name.startsWith('on') && typeof value === 'function') {
        element.addEventListener(name.slice(2), value as EventListener);
      } else if (name === 'className') {
        element.className = String(value);
      } else if (value === true) {
        element.setAttribute(name, '');
      } else {
        element.setAttribute(name, String(value));
      }
    }
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** An SVG element, made like h() makes HTML ones: attributes as strings, then children. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: SVGElement[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) element.appendChild(child);
  return element;
}

/** Replaces an element's children (messages and lists drawn on demand, never on a slider step). */
export function replace(parent: Element, ...children: Child[]): void {
  const fragment = document.createDocumentFragment();
  append(fragment, children);
  parent.replaceChildren(fragment);
}

/**
 * Sets text only when it changed (keeps screen readers and layout calm). An element holding one
 * text node keeps that node and changes its data: nothing is replaced on a slider step.
 */
export function setText(element: Element, text: string): void {
  const first = element.firstChild;
  if (first !== null && first === element.lastChild && first.nodeType === 3) {
    if ((first as Text).data !== text) (first as Text).data = text;
    return;
  }
  if (element.textContent !== text) element.textContent = text;
}

let idCounter = 0;
/** Ids unique across every mounted widget in the document (labels, aria-describedby). */
export function uniqueId(name: string): string {
  idCounter += 1;
  return `ts${idCounter}-${name}`;
}

/** Sets an attribute only when it changed. */
export function setAttribute(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

export function setStyle(element: HTMLElement, property: string, value: string): void {
  if (element.style.getPropertyValue(property) !== value) element.style.setProperty(property, value);
}

export function setHidden(element: HTMLElement, hidden: boolean): void {
  if (element.hidden !== hidden) element.hidden = hidden;
}

export function setClass(element: Element, name: string, on: boolean): void {
  if (element.classList.contains(name) !== on) element.classList.toggle(name, on);
}

/** Text plus the raw engine value in data-value (browser tests compare it with the engine). */
export function setFigure(element: Element, text: string, value: number | boolean): void {
  setText(element, text);
  setAttribute(element, 'data-value', String(value));
}
