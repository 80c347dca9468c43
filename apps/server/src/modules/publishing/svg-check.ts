/**
 * What an SVG icon may hold before it is rendered. A few kilobytes of nested `<use>` references (or
 * `url(#…)` references to masks, patterns, markers) multiply into millions of drawn elements and tie a
 * render thread for seconds ("billion laughs"), so the references are followed here, on the text, and
 * such a file is refused before any rendering starts.
 */

/** Elements drawn once every reference is followed; real icons draw a few hundred. */
export const SVG_MAX_RENDERED_ELEMENTS = 10_000;
/** Nesting of elements, and of references (a <use> of a <use> of …); real icons nest a dozen deep. */
export const SVG_MAX_DEPTH = 100;

export type SvgCheck =
  | { ok: true }
  /** Not an SVG document at all (not well-formed XML, or another root element). */
  | { ok: false; malformed: true }
  /** An SVG this server will not render, and why. */
  | { ok: false; malformed: false; reason: string };

type Element = {
  children: Element[];
  /** Targets by id, each with how many times it is drawn for this element. */
  refs: { id: string; times: number }[];
};

const NAME = '[A-Za-z_][\\w:.-]*';
const OPEN_TAG = new RegExp(`<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`, 'y');
const CLOSE_TAG = new RegExp(`</(${NAME})\\s*>`, 'y');
const ATTRIBUTE = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
const URL_REFERENCE = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi;
const NUMBER = /[-+]?(?:\d*\.\d+|\d+\.?)(?:e[-+]?\d+)?/gi;

const malformed: SvgCheck = { ok: false, malformed: true };
const refused = (reason: string): SvgCheck => ({ ok: false, malformed: false, reason });
const tooMany = refused(
  `it draws more than ${SVG_MAX_RENDERED_ELEMENTS} elements once its references (<use>, url(#…)) are followed`,
);
const EXTERNAL = 'it refers to content outside the file (only #references within it are allowed)';

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The target id of a reference, or 'external' for anything that leaves the file. */
const targetOf = (reference: string): string | 'external' | undefined => {
  const value = reference.trim();
  if (value === '') return undefined;
  return value.startsWith('#') ? value.slice(1) : 'external';
};

/** `url(…)` references in a value (an attribute, a style attribute or a style sheet). */
const urlTargets = (value: string) => {
  const targets: (string | 'external')[] = [];
  for (const match of value.matchAll(URL_REFERENCE)) {
    const target = targetOf(match[1] ?? match[2] ?? match[3] ?? '');
    if (target !== undefined) targets.push(target);
  }
  return targets;
};

/** A marker is drawn at each vertex of its path: at most one vertex per coordinate pair. */
const vertexEstimate = (attributes: Map<string, string>) => {
  const numbers = `${attributes.get('d') ?? ''} ${attributes.get('points') ?? ''}`.match(NUMBER)?.length ?? 0;
  return Math.max(2, Math.ceil(numbers / 2) + 1);
};

/** The `url(#…)` references of one property declaration list (`a: b; c: url(#d)`), with their weight. */
const declarationRefs = (declarations: string, markerTimes: number, plainTimes: number) =>
  declarations.split(';').flatMap((declaration) => {
    const property = declaration.slice(0, declaration.indexOf(':')).trim().toLowerCase();
    const times = property.startsWith('marker') ? markerTimes : plainTimes;
    return urlTargets(declaration).map((id) => ({ id, times }));
  });

/**
 * Reads an SVG document's elements and references without rendering it, and says whether it may be
 * rendered: no document type or entities, no reference outside the file, nesting and the number of drawn
 * elements (references followed, loops refused) within bounds.
 */
export const checkSvg = (text: string): SvgCheck => {
  const ids = new Map<string, Element>();
  const stack: { name: string; element: Element }[] = [];
  let root: { name: string; element: Element } | undefined;
  let styleSheets = '';
  let elementCount = 0;
  let vertexTotal = 0;
  let at = 0;
  for (;;) {
    const open = text.indexOf('<', at);
    const inStyle = stack.length > 0 && localName((stack.at(-1) as { name: string }).name) === 'style';
    if (inStyle) styleSheets += text.slice(at, open === -1 ? text.length : open);
    if (open === -1) break;
    if (text.startsWith('<!--', open)) {
      const end = text.indexOf('-->', open + 4);
      if (end === -1) return malformed;
      at = end + 3;
    } else if (text.startsWith('<![CDATA[', open)) {
      const end = text.indexOf(']]>', open + 9);
      if (end === -1) return malformed;
      if (inStyle) styleSheets += text.slice(open + 9, end);
      at = end + 3;
    } else if (text.startsWith('<?', open)) {
      const end = text.indexOf('?>', open + 2);
      if (end === -1) return malformed;
      at = end + 2;
    } else if (text.startsWith('<!', open)) {
      // A document type can declare entities that expand into gigabytes; an icon has no use for one.
      return refused('it declares a document type or entities');
    } else if (text.startsWith('</', open)) {
      CLOSE_TAG.lastIndex = open;
      const match = CLOSE_TAG.exec(text);
      if (!match || stack.pop()?.name !== match[1]) return malformed;
      at = CLOSE_TAG.lastIndex;
    } else {
      OPEN_TAG.lastIndex = open;
      const match = OPEN_TAG.exec(text);
      if (!match) return malformed;
      at = OPEN_TAG.lastIndex;
      const [, name = '', attributeText = '', selfClosing] = match;
      if (stack.length === 0 && root) return malformed;
      if (stack.length >= SVG_MAX_DEPTH)
        return refused(`its elements are nested more than ${SVG_MAX_DEPTH} deep`);
      elementCount += 1;
      if (elementCount > SVG_MAX_RENDERED_ELEMENTS) return tooMany;
      const attributes = new Map<string, string>();
      for (const attribute of attributeText.matchAll(ATTRIBUTE))
        attributes.set(attribute[1] as string, attribute[2] ?? attribute[3] ?? '');
      const vertices = vertexEstimate(attributes);
      vertexTotal += vertices;
      const element: Element = { children: [], refs: [] };
      for (const [attribute, value] of attributes) {
        if (localName(attribute) === 'href') {
          const target = targetOf(value);
          if (target !== undefined) element.refs.push({ id: target, times: 1 });
        } else if (attribute === 'style') {
          element.refs.push(...declarationRefs(value, vertices, 1));
        } else {
          const times = attribute.startsWith('marker') ? vertices : 1;
          for (const id of urlTargets(value)) element.refs.push({ id, times });
        }
      }
      if (element.refs.some((ref) => ref.id === 'external')) return refused(EXTERNAL);
      const id = attributes.get('id');
      if (id !== undefined && !ids.has(id)) ids.set(id, element);
      const parent = stack.at(-1);
      if (parent) parent.element.children.push(element);
      else root = { name, element };
      if (selfClosing !== '/') stack.push({ name, element });
    }
  }
  if (!root || stack.length > 0 || localName(root.name) !== 'svg') return malformed;

  // A style sheet's rule can reach every element: its references count once per element (per vertex
  // for markers), which is harmless for a gradient fill and refuses a mask full of elements.
  if (/@import/i.test(styleSheets)) return refused(EXTERNAL);
  const sheetRefs = styleSheets
    .split('}')
    .flatMap((rule) => declarationRefs(rule.slice(rule.indexOf('{') + 1), vertexTotal, elementCount));
  if (sheetRefs.some((ref) => ref.id === 'external')) return refused(EXTERNAL);

  const cost = new Map<Element, number>();
  const visiting = new Set<Element>();
  let loop = false;
  let deep = false;
  const limit = SVG_MAX_RENDERED_ELEMENTS + 1;
  const drawn = (element: Element, depth: number): number => {
    const known = cost.get(element);
    if (known !== undefined) return known;
    if (visiting.has(element)) loop = true;
    // Children nest at most SVG_MAX_DEPTH deep; a longer path is a chain of references.
    if (depth > 2 * SVG_MAX_DEPTH) deep = true;
    if (loop || deep) return limit;
    visiting.add(element);
    let total = 1;
    for (const child of element.children) {
      if (total >= limit || loop || deep) break;
      total = Math.min(limit, total + drawn(child, depth + 1));
    }
    for (const ref of element.refs) {
      const target = ids.get(ref.id);
      if (!target || total >= limit || loop || deep) continue;
      total = Math.min(limit, total + ref.times * drawn(target, depth + 1));
    }
    visiting.delete(element);
    cost.set(element, total);
    return total;
  };
  let total = drawn(root.element, 0);
  for (const ref of sheetRefs) {
    const target = ids.get(ref.id);
    if (target && total < limit && !loop && !deep)
      total = Math.min(limit, total + ref.times * drawn(target, 0));
  }
  if (loop) return refused('its references form a loop');
  if (deep) return refused(`its references are nested more than ${2 * SVG_MAX_DEPTH} deep`);
  if (total >= limit) return tooMany;
  return { ok: true };
};
