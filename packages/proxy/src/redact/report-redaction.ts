// The one redaction step between what the traffic held and what a report or a summary shows: every text that goes
// into a drift report (DriftRecorder) and every line `gw spec drift` prints passes through here.
import { REDACTED } from '@gw/client';
import { namesCardData } from '@gw/types';
import { maskCardNumbers } from './card-numbers.ts';

/** A value's shape without its value: digits become 9, letters a or A, everything else stays (`4111-…` → `9999-…`). */
export function shapeOf(text: string): string {
  return text.replace(/\d/g, '9').replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A');
}

/** Free text for a report: every digit run that may be a card number masked (Luhn, separators allowed). */
export function reportText(text: string): string {
  return maskCardNumbers(text);
}

/** Paths already judged (the places of a spec's answers, seen on every exchange), at most PATHS_JUDGED of them. */
const judgedPaths = new Map<string, boolean>();
const PATHS_JUDGED = 4096;

/** True when a field path (`orders[].card`, `note.cvv`) passes through a member whose name may carry card data. */
export function pathNamesCardData(path: string): boolean {
  let names = judgedPaths.get(path);
  if (names === undefined) {
    names = path.split(/\.|\[\]/).some((name) => name !== '' && namesCardData(name));
    if (judgedPaths.size >= PATHS_JUDGED) judgedPaths.clear();
    judgedPaths.set(path, names);
  }
  return names;
}

/**
 * A value seen at `path` as a report may show it: only its shape when the path names card data (`cvv`, `card`,
 * `expiry`, …), else the text with card numbers masked.
 */
export function reportValue(path: string, value: string): string {
  return pathNamesCardData(path) ? shapeOf(maskCardNumbers(value)) : maskCardNumbers(value);
}

/** Longest segment of an unknown path shown as written. */
const WORD_CHARS = 40;

function segmentShape(raw: string): string {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    segment = raw;
  }
  if (segment === '' || (/^[A-Za-z][\w.-]*$/.test(segment) && segment.length <= WORD_CHARS && !/\d{3}/.test(segment))) return segment;
  if (/^[\d\s.+-]+$/.test(segment)) return '{digits}';
  return '{text}';
}

/**
 * A request path by its shape, never its values: words stay, a segment of digits becomes `{digits}`, any other
 * becomes `{text}` (`/v1/cards/4111111111111111` → `/v1/cards/{digits}`). For paths the spec does not know.
 */
export function pathShape(path: string): string {
  const segments = path.split('/');
  const shown = segments.slice(0, 12).map(segmentShape);
  return `${shown.join('/')}${segments.length > 12 ? '/…' : ''}`;
}

/**
 * A report as it may be shown: every text in it (names and values, at any depth) with card numbers masked, and the
 * example of every drift entry at a card-data path kept to its shape. For a report read from a file (which may come
 * from an older gw, or be edited) before it is summarised.
 */
export function redactReport<T>(report: T): T {
  const copy = maskEverywhere(report) as T;
  const drift = (copy as { drift?: unknown }).drift;
  if (Array.isArray(drift)) {
    for (const entry of drift as { path?: unknown; example?: unknown }[]) {
      if (entry && typeof entry.path === 'string' && typeof entry.example === 'string' && pathNamesCardData(entry.path) && entry.example !== REDACTED)
        entry.example = shapeOf(entry.example);
    }
  }
  return copy;
}

function maskEverywhere(value: unknown): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (Array.isArray(value)) return value.map(maskEverywhere);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value))
    Object.defineProperty(out, maskCardNumbers(name), { value: maskEverywhere(member), enumerable: true, writable: true, configurable: true });
  return out;
}

/** What a drift finding carries that is text from the traffic. */
interface FindingText {
  readonly operation: string;
  readonly path: string;
  readonly message: string;
  readonly example: string;
}

/**
 * A drift finding as the report keeps it: operation, path, message and example with card numbers masked, and the
 * example only a shape where the path names card data (a `cvv` shows `"999"`, never `"123"`).
 */
export function redactFinding<T extends FindingText>(finding: T): T {
  const path = reportText(finding.path);
  const example = pathNamesCardData(finding.path) ? shapeOf(reportText(finding.example)) : reportText(finding.example);
  return { ...finding, operation: reportText(finding.operation), path, message: reportText(finding.message), example };
}
