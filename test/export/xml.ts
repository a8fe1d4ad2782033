/**
 * A small XML well-formedness check for the SVG tests (no parser package is installed for this,
 * and a browser-grade HTML parser would forgive exactly what we want to catch): tags nest and
 * close, attributes are quoted and unique, `&` only starts an entity, text holds no `<`.
 */

export interface XmlElement {
  name: string;
  attributes: Map<string, string>;
  children: XmlElement[];
  /** The element's own text, entities left as written. */
  text: string;
}

const entity = /^&(?:amp|lt|gt|quot|apos|#\d+|#x[\da-fA-F]+);/;

/** Parses `text` into its root element; throws with the offset of the first problem. */
export function parseXml(text: string): XmlElement {
  const body = text.replace(/^<\?xml[^?]*\?>\s*/, '').replace(/^<!DOCTYPE[^>]*>\s*/, '');
  const document: XmlElement = { name: '#document', attributes: new Map(), children: [], text: '' };
  const stack = [document];
  const fail = (message: string, at: number): never => {
    throw new Error(
      `not well-formed XML: ${message} at offset ${at}: ${JSON.stringify(body.slice(at, at + 60))}`,
    );
  };
  const checkText = (from: number, to: number) => {
    stack.at(-1)!.text += body.slice(from, to);
    for (let i = body.indexOf('&', from); i !== -1 && i < to; i = body.indexOf('&', i + 1)) {
      if (!entity.test(body.slice(i, i + 12))) fail('bare &', i);
    }
  };
  let at = 0;
  while (at < body.length) {
    const open = body.indexOf('<', at);
    if (open === -1) {
      checkText(at, body.length);
      break;
    }
    checkText(at, open);
    if (body.startsWith('<!--', open)) {
      const end = body.indexOf('-->', open);
      if (end === -1) fail('unclosed comment', open);
      at = end + 3;
      continue;
    }
    const close = tagEnd(body, open);
    if (close === -1) fail('unclosed tag', open);
    const tag = body.slice(open + 1, close);
    at = close + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const top = stack.pop();
      if (!top || top.name !== name) fail(`</${name}> closes <${top?.name}>`, open);
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const match = /^([A-Za-z_][\w:.-]*)/.exec(tag);
    if (!match) fail('bad tag name', open);
    const element: XmlElement = { name: match![1]!, attributes: new Map(), children: [], text: '' };
    const rest = tag.slice(match![0].length, selfClosing ? -1 : undefined);
    const attribute = /\s+([A-Za-z_][\w:.-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/y;
    let index = 0;
    for (;;) {
      attribute.lastIndex = index;
      const found = attribute.exec(rest);
      if (!found) break;
      if (element.attributes.has(found[1]!)) fail(`duplicate attribute ${found[1]}`, open);
      const value = found[3] ?? found[4] ?? '';
      if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-fA-F]+);)/.test(value))
        fail('bare & in attribute', open);
      element.attributes.set(found[1]!, value);
      index = attribute.lastIndex;
    }
    if (rest.slice(index).trim() !== '') fail('malformed attributes', open);
    stack.at(-1)!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) fail(`<${stack.at(-1)!.name}> is never closed`, body.length);
  if (document.children.length !== 1) fail('expected exactly one root element', 0);
  return document.children[0]!;
}

/** Every element below `root` (itself included) named `name`. */
export function findAll(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (element: XmlElement) => {
    if (element.name === name) found.push(element);
    element.children.forEach(walk);
  };
  walk(root);
  return found;
}

function tagEnd(text: string, open: number): number {
  let quote: string | undefined;
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') return i;
  }
  return -1;
}
