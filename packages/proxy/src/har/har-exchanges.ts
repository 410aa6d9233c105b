// A HAR 1.2 recording (a browser's or another proxy's) read as the exchanges the proxy would have seen.
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { Exchange } from '../check/exchange.ts';

/** One `/v1` exchange of a recording and when it started. */
export interface TimedExchange {
  readonly exchange: Exchange;
  readonly at: Date;
  /** When its answer came (ms since the epoch): its start plus the entry's `time`, else its start. */
  readonly answeredAt: number;
  /** The gateway's base address it went to (origin and any path before `/v1/`). */
  readonly upstream: string;
}

/** What a recording holds for checking: its `/v1` exchanges, and how many other entries it had. */
export interface HarExchanges {
  readonly exchanges: readonly TimedExchange[];
  /** Entries that are not `/v1` requests (pages, images, …) or got no answer (status 0): not checked. */
  readonly skipped: number;
}

type Json = Record<string, unknown>;

/** Most problems a decode error lists (the count says how many there were). */
const LISTED_PROBLEMS = 20;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A header's value, or undefined when the recording has none of that name. */
function headerValue(headers: unknown, name: string): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  const found = headers.find((h): h is Json => isObject(h) && typeof h.name === 'string' && h.name.toLowerCase() === name);
  return found && typeof found.value === 'string' ? found.value : undefined;
}

function header(headers: unknown, name: string): string {
  return headerValue(headers, name) ?? '';
}

/** A body as recorded, or null when it is missing or larger than `limit` (then the exchange is unchecked, as live). */
function bodyOf(text: unknown, encoding: unknown, limit: number): Buffer | null {
  if (typeof text !== 'string') return null;
  const body = encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  return body.length > limit ? null : body;
}

function requestBody(request: Json, limit: number): Buffer | null {
  const post = request.postData;
  if (!isObject(post)) return Buffer.alloc(0);
  if (typeof post.text === 'string') return bodyOf(post.text, undefined, limit);
  // Some tools record a form body as params only.
  if (Array.isArray(post.params))
    return bodyOf(
      new URLSearchParams(
        (post.params as Json[]).map((p): [string, string] => [(p.name as string | undefined) ?? '', (p.value as string | undefined) ?? '']),
      ).toString(),
      undefined,
      limit,
    );
  return null;
}

function responseBody(response: Json, limit: number): Buffer | null {
  const content = isObject(response.content) ? response.content : {};
  if (typeof content.text !== 'string' && content.size === 0) return Buffer.alloc(0);
  return bodyOf(content.text, content.encoding, limit);
}

/** The problems of a HAR `headers` or `params` list at `where`: an array of objects whose named members are strings. */
function listProblems(list: unknown, where: string, strings: readonly string[]): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return [`${where}: is not an array`];
  return list.flatMap((item, i) => {
    if (!isObject(item)) return [`${where}[${i}]: is not an object`];
    return strings.flatMap((name) => (item[name] === undefined || typeof item[name] === 'string' ? [] : [`${where}[${i}].${name}: is not a string`]));
  });
}

/** The problems of members at `where` that must be of one JSON type when present (`text` a string, `size` a number). */
function typeProblems(record: Json, where: string, types: Readonly<Record<string, 'string' | 'number'>>): string[] {
  return Object.entries(types).flatMap(([name, type]) =>
    record[name] === undefined || typeof record[name] === type ? [] : [`${where}.${name}: is not a ${type}`],
  );
}

/** The problems of an entry's request beyond its URL: method, headers and postData as HAR 1.2 types them. */
function requestProblems(request: Json, where: string): string[] {
  const problems = [...typeProblems(request, where, { method: 'string' }), ...listProblems(request.headers, `${where}.headers`, ['name', 'value'])];
  const post = request.postData;
  if (post === undefined) return problems;
  if (!isObject(post)) return [...problems, `${where}.postData: is not an object`];
  return [
    ...problems,
    ...typeProblems(post, `${where}.postData`, { mimeType: 'string', text: 'string' }),
    ...listProblems(post.params, `${where}.postData.params`, ['name', 'value']),
  ];
}

/** The problems of an entry's response beyond its status: headers and content as HAR 1.2 types them. */
function responseProblems(response: Json, where: string): string[] {
  const problems = listProblems(response.headers, `${where}.headers`, ['name', 'value']);
  const content = response.content;
  if (content === undefined) return problems;
  if (!isObject(content)) return [...problems, `${where}.content: is not an object`];
  return [...problems, ...typeProblems(content, `${where}.content`, { text: 'string', encoding: 'string', mimeType: 'string', size: 'number' })];
}

/**
 * The problems of one entry's shape (empty when it can be read), each named by its place in the HAR and never by
 * what stands there (a recording holds card data).
 */
function entryProblems(entry: unknown, where: string): string[] {
  if (!isObject(entry)) return [`${where}: is not an object`];
  const problems: string[] = [];
  if (!isObject(entry.request) || typeof entry.request.url !== 'string') problems.push(`${where}.request.url: missing (every entry has its request's URL)`);
  else problems.push(...requestProblems(entry.request, `${where}.request`));
  if (!isObject(entry.response) || typeof entry.response.status !== 'number')
    problems.push(`${where}.response.status: missing (every entry has its answer's status)`);
  else problems.push(...responseProblems(entry.response, `${where}.response`));
  if (typeof entry.startedDateTime !== 'string' || Number.isNaN(Date.parse(entry.startedDateTime)))
    problems.push(`${where}.startedDateTime: missing or not a date`);
  if (entry.time !== undefined && typeof entry.time !== 'number') problems.push(`${where}.time: is not a number`);
  return problems;
}

function timedExchange(entry: Json, limit: number): TimedExchange | null {
  const request = entry.request as Json;
  const response = entry.response as Json;
  let url: URL;
  try {
    url = new URL(request.url as string);
  } catch {
    return null;
  }
  const start = url.pathname.indexOf('/v1/');
  if (start === -1 || response.status === 0) return null;
  const content = isObject(response.content) ? response.content : {};
  const retryAfter = headerValue(response.headers, 'retry-after');
  const exchange: Exchange = {
    path: url.pathname.slice(start),
    method: typeof request.method === 'string' ? request.method : 'GET',
    requestContentType:
      header(request.headers, 'content-type') || (isObject(request.postData) && typeof request.postData.mimeType === 'string' ? request.postData.mimeType : ''),
    requestBody: requestBody(request, limit),
    status: response.status as number,
    responseContentType: header(response.headers, 'content-type') || (typeof content.mimeType === 'string' ? content.mimeType : ''),
    responseBody: responseBody(response, limit),
    ...(retryAfter === undefined ? {} : { retryAfter }),
  };
  const at = new Date(entry.startedDateTime as string);
  const took = typeof entry.time === 'number' && entry.time >= 0 ? entry.time : 0;
  return { exchange, at, answeredAt: at.getTime() + took, upstream: url.origin + url.pathname.slice(0, start) };
}

/**
 * The `/v1` exchanges of a parsed HAR file in the order they started; a value that is not a HAR, or entries without a
 * URL, status or start time, are a GwError (code GW_DECODE) naming every problem at once.
 */
export function harExchanges(har: unknown, limit: number): HarExchanges {
  const entries = isObject(har) && isObject(har.log) ? har.log.entries : undefined;
  if (!Array.isArray(entries))
    throw new GwError(
      GW_ERROR_CODES.decode,
      'not a HAR recording: it has no log.entries array (save the recording as HAR 1.2, e.g. a browser\'s "Save all as HAR")',
      { problems: ['log.entries: missing'] },
    );
  const problems = entries.flatMap((entry, i) => entryProblems(entry, `log.entries[${i}]`));
  if (problems.length > 0) {
    const listed = problems.slice(0, LISTED_PROBLEMS);
    const more = problems.length > listed.length ? `\n  - and ${problems.length - listed.length} more` : '';
    throw new GwError(GW_ERROR_CODES.decode, `the HAR recording has ${problems.length} unreadable part(s):\n  - ${listed.join('\n  - ')}${more}`, {
      problems: listed,
      count: problems.length,
    });
  }
  const exchanges: TimedExchange[] = [];
  for (const entry of entries as Json[]) {
    const timed = timedExchange(entry, limit);
    if (timed) exchanges.push(timed);
  }
  exchanges.sort((a, b) => a.at.getTime() - b.at.getTime());
  return { exchanges, skipped: entries.length - exchanges.length };
}
