// A small element builder bound to one document (the container's), so the quiz builds its
// nodes in whatever document or shadow root hosts it. Text always goes in as text nodes:
// question text is data, never markup. No style="…" markup, so a strict CSP is fine.

export type Child = Node | string | number | null | undefined | false | Child[];
export type Attributes = Record<string, string | number | boolean | null | undefined>;

export type Builder = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes | null, ...children: Child[]) => HTMLElementTagNameMap[K];

export function builder(doc: Document): Builder {
  const append = (parent: Node, children: Child[]): void => {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child)) append(parent, child);
      else parent.appendChild(typeof child === 'object' ? child : doc.createTextNode(String(child)));
    }
  };
  return (tag, attributes, ...children) => {
    const element = doc.createElement(tag);
    if (attributes) {
      for (const [name, value] of Object.entries(attributes)) {
        if (value === null || value === undefined || value === false) continue;
        if (name === 'className') element.className = String(value);
        else element.setAttribute(name, value === true ? '' : String(value));
      }
    }
    append(element, children);
    return element;
  };
}
