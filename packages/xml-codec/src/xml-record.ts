import { XMLParser } from 'fast-xml-parser';
import { ValidationError, type ValidationProblem } from '@gw/types';
import { DecodeError } from './decode-error.ts';
import type { ElementPlan, RecordPlan } from './element-plan.ts';
import { assertWellFormed, MAX_XML_DEPTH, reservedName } from './xml-well-formed.ts';
import { DoctypeRefusal, escapeXmlText, isReservedName, isXmlElementName, isXmlText, xmlEntityDecoder } from './xml-text.ts';

/** The value of an element the spec does not list: its text, its children, or a list when it repeats. UNKNOWNS U20. */
export type XmlValue = string | XmlRecord | XmlValue[];
/** Child elements by name. */
export interface XmlRecord {
  [element: string]: XmlValue;
}

const TEXT = '#text';
// An element named like a JavaScript object member reaches the walk under this mark, which refuses it with its path.
const RESERVED_MARK = '\u0000';
// What fast-xml-parser throws when elements nest deeper than `maxNestedTags`.
const TOO_DEEP = 'Maximum nested tags exceeded';

// One parser for every document, built once.
const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  entityDecoder: xmlEntityDecoder,
  // The parser stops at the 101st level (the root is the 1st), before any walk could recurse that deep.
  maxNestedTags: MAX_XML_DEPTH - 1,
  // No callback reads the path, so the parser need not build it as text for every element.
  jPath: false,
  // fast-xml-parser would refuse `__proto__` without a path and rename `toString` & co. to `__toString`.
  transformTagName: (name: string): string => (isReservedName(name) ? RESERVED_MARK + name : name),
});

/** What a parser failure means: a DOCTYPE, too deep a nesting, or a document it cannot read. */
function parserFailure(cause: unknown, text: string): DecodeError {
  // fast-xml-parser reads a DOCTYPE only when it starts with `<!D`; a refusal or a broken DTD both land here.
  if (cause instanceof DoctypeRefusal || text.includes('<!DOCTYPE')) {
    // Only the refusal is kept as the cause: the parser's own messages can quote the document.
    return new DecodeError(
      { format: 'xml', failure: 'doctype', path: '' },
      'the document declares a DOCTYPE; DTDs and entities are never processed',
      cause instanceof DoctypeRefusal ? { cause } : undefined,
    );
  }
  if (cause instanceof Error && cause.message === TOO_DEEP) {
    return new DecodeError({ format: 'xml', failure: 'too-deep', path: '' }, `elements are nested more than ${MAX_XML_DEPTH} levels deep`);
  }
  return new DecodeError({ format: 'xml', failure: 'malformed', path: '' }, 'the XML parser could not read the document');
}

/** The name of the single root element of a parsed document, named `root` unless `root` is null. */
function rootName(doc: Record<string, unknown>, root: string | null): string {
  let found: string | undefined;
  for (const key in doc) {
    if (key === TEXT) continue;
    if (found !== undefined) throw new DecodeError({ format: 'xml', failure: 'root', path: '' }, 'the document has more than one root element');
    found = key;
  }
  if (found?.startsWith(RESERVED_MARK)) throw reservedName('', found.slice(RESERVED_MARK.length));
  if (found === undefined) throw new DecodeError({ format: 'xml', failure: 'root', path: '' }, root ? `no <${root}> root element` : 'no root element');
  if (root !== null && found !== root)
    throw new DecodeError({ format: 'xml', failure: 'root', path: found }, `the root element is <${found}>, expected <${root}>`);
  if (Array.isArray(doc[found])) throw new DecodeError({ format: 'xml', failure: 'root', path: found }, 'the document has more than one root element');
  return found;
}

/**
 * The root element of a document: parsed (a DOCTYPE and nesting deeper than MAX_XML_DEPTH are refused there), exactly
 * one root named `root` unless `root` is null, then checked well-formed. Every failure is a DecodeError.
 */
export function parseRootElement(text: string, root: string | null): { name: string; value: unknown } {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch (cause) {
    throw parserFailure(cause, text);
  }
  const name = rootName(doc, root);
  assertWellFormed(text);
  // The validator lets CDATA through outside the root; the parser keeps it as top-level text.
  const outside = doc[TEXT];
  if (typeof outside === 'string' && !isBlank(outside))
    throw new DecodeError({ format: 'xml', failure: 'malformed', path: '' }, 'character data outside the root element');
  return { name, value: doc[name] };
}

function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

function typeError(path: string, message: string): DecodeError {
  return new DecodeError({ format: 'xml', failure: 'type', path }, message);
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

function decodeNumber(text: string, integer: boolean, path: string): number | undefined {
  const trimmed = text.trim();
  // An empty element has no number to give: the property is left out (the record type has no `''` for it).
  if (trimmed === '') return undefined;
  if (!(integer ? INTEGER : DECIMAL).test(trimmed)) throw typeError(path, `expected ${integer ? 'an integer' : 'a number'}`);
  const value = Number(trimmed);
  if (!Number.isFinite(value)) throw typeError(path, 'the number is out of range');
  return value;
}

/** True for the parser's text member of an element with children when it is only whitespace; other text is refused. */
function isBlankTextMember(key: string, child: unknown, path: string): boolean {
  if (key !== TEXT) return false;
  if (typeof child === 'string' && isBlank(child)) return true;
  throw typeError(path, 'text is mixed with child elements');
}

/**
 * Refuses an element named like a JavaScript object member (marked by the parser): `out[key] = …` with `key` =
 * `__proto__` would replace the record's prototype. Unmarked names are checked too, whatever a parser lets through.
 */
function refuseReserved(key: string, path: string): void {
  if (key.startsWith(RESERVED_MARK)) throw reservedName(path, key.slice(RESERVED_MARK.length));
  if (isReservedName(key)) throw reservedName(path, key);
}

function decodeUnknown(value: unknown, path: string): XmlValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item, index) => decodeUnknown(item, `${path}[${index}]`));
  const out: XmlRecord = {};
  const children = value as Record<string, unknown>;
  for (const key in children) {
    const child = children[key];
    if (isBlankTextMember(key, child, path)) continue;
    refuseReserved(key, path);
    out[key] = decodeUnknown(child, `${path}.${key}`);
  }
  return out;
}

/** Converts one parsed element by its plan; `undefined` means "leave the property out". */
function decodeElement(value: unknown, plan: ElementPlan, path: string): unknown {
  if (Array.isArray(value)) throw new DecodeError({ format: 'xml', failure: 'repeated', path }, 'the element appears more than once');
  switch (plan.kind) {
    case 'text':
      if (typeof value !== 'string') throw typeError(path, 'expected text, found child elements');
      return value;
    case 'number':
      if (typeof value !== 'string') throw typeError(path, 'expected a number, found child elements');
      return decodeNumber(value, plan.integer, path);
    case 'record':
      return decodeRecord(value, plan, path);
  }
}

/** Converts a parsed element with children by its record plan; unknown children are kept (UNKNOWNS U20). */
export function decodeRecord(value: unknown, plan: RecordPlan, path: string): Record<string, unknown> | '' {
  if (typeof value === 'string') {
    if (!isBlank(value)) throw typeError(path, 'expected child elements, found text');
    return plan.emptyAsText ? '' : {};
  }
  const out: Record<string, unknown> = {};
  const children = value as Record<string, unknown>;
  for (const key in children) {
    const child = children[key];
    if (isBlankTextMember(key, child, path)) continue;
    refuseReserved(key, path);
    const childPlan = plan.children.get(key);
    const decoded = childPlan ? decodeElement(child, childPlan, `${path}.${key}`) : decodeUnknown(child, `${path}.${key}`);
    if (decoded !== undefined) out[key] = decoded;
  }
  return out;
}

/** Collects encoding problems; never records a value, only where it is and what is wrong. */
class ProblemList {
  readonly problems: ValidationProblem[] = [];

  add(field: string, keyword: string, message: string): void {
    const pointer =
      field === ''
        ? ''
        : '/' +
          field
            .replace(/\[(\d+)\]/g, '.$1')
            .split('.')
            .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
            .join('/');
    this.problems.push({ pointer, field, keyword, message });
  }
}

function writeText(name: string, text: string, field: string, problems: ProblemList): string {
  if (!isXmlText(text)) {
    problems.add(field, 'xmlChar', 'contains a character XML cannot carry (a control character, U+FFFE/U+FFFF or a lone surrogate)');
    return '';
  }
  return text === '' ? `<${name}/>` : `<${name}>${escapeXmlText(text)}</${name}>`;
}

function writeUnknown(name: string, value: unknown, field: string, problems: ProblemList, level: number): string {
  if (typeof value === 'string') return writeText(name, value, field, problems);
  if (Array.isArray(value)) {
    return value
      .map((item, index) => {
        if (!Array.isArray(item)) return writeUnknown(name, item, `${field}[${index}]`, problems, level);
        problems.add(`${field}[${index}]`, 'type', 'a list inside a list has no XML form');
        return '';
      })
      .join('');
  }
  if (typeof value === 'object' && value !== null)
    return `<${name}>${writeChildren(value as Record<string, unknown>, null, field, problems, level + 1)}</${name}>`;
  problems.add(field, 'type', 'an element the spec does not list must be a string, an object or an array');
  return '';
}

function writeElement(name: string, value: unknown, plan: ElementPlan, field: string, problems: ProblemList, level: number): string {
  switch (plan.kind) {
    case 'text':
      if (typeof value === 'string') return writeText(name, value, field, problems);
      problems.add(field, 'type', 'must be a string');
      return '';
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value) && (!plan.integer || Number.isInteger(value))) return `<${name}>${String(value)}</${name}>`;
      problems.add(field, 'type', plan.integer ? 'must be an integer' : 'must be a finite number');
      return '';
    case 'record':
      if (value === '' && plan.emptyAsText) return `<${name}/>`;
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return `<${name}>${writeChildren(value as Record<string, unknown>, plan, field, problems, level + 1)}</${name}>`;
      problems.add(field, 'type', plan.emptyAsText ? "must be an object or ''" : 'must be an object');
      return '';
  }
}

/** Writes a record's members as elements at nesting `level` (the root is 1); deeper than MAX_XML_DEPTH is a problem. */
function writeChildren(record: Record<string, unknown>, plan: RecordPlan | null, path: string, problems: ProblemList, level: number): string {
  if (level > MAX_XML_DEPTH) {
    // Bounds the recursion over a caller's record, and the decoder would refuse the document anyway.
    problems.add(path, 'maxDepth', `is nested more than ${MAX_XML_DEPTH} elements deep (the root included), which XML decoding refuses`);
    return '';
  }
  let xml = '';
  const prefix = path ? `${path}.` : '';
  // Spec order first, then the elements the spec does not list, in the record's order.
  if (plan) {
    for (const [name, childPlan] of plan.children) {
      const value = record[name];
      if (value !== undefined && Object.hasOwn(record, name)) xml += writeElement(name, value, childPlan, prefix + name, problems, level);
    }
  }
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (value === undefined || plan?.children.has(name)) continue;
    if (!isXmlElementName(name) || isReservedName(name)) {
      problems.add(prefix + name, 'xmlName', 'is not usable as an XML element name (not an XML name, or a JavaScript object member name)');
      continue;
    }
    xml += writeUnknown(name, value, prefix + name, problems, level);
  }
  return xml;
}

/** Writes `record` as an XML document with the given root; problems are reported all at once as a ValidationError. */
export function encodeXmlRecord(record: object, plan: RecordPlan, root: string, operation: string): string {
  const problems = new ProblemList();
  if (!isXmlElementName(root)) problems.add('', 'xmlName', `the root element name ${JSON.stringify(root)} is not an XML name`);
  if (typeof record !== 'object' || record === null || Array.isArray(record)) problems.add('', 'type', 'the record must be an object');
  const body = problems.problems.length ? '' : writeChildren(record as Record<string, unknown>, plan, '', problems, 2);
  if (problems.problems.length) throw new ValidationError(operation, plan.schema, problems.problems);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>${body}</${root}>`;
}
