import type { SignableMessage } from '../../src/index.ts';

/** Compares by Unicode code points (not UTF-16 units): the order the reference HMAC promises, stated independently. */
export function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** The documented escaping of a path or value in the signing text. */
export const escapeSigningPart = (t: string): string => t.replaceAll('%', '%25').replaceAll('&', '%26').replaceAll('=', '%3D');

/** The signing text by the documented rule, written the slow and obvious way: whole paths, then pairs, by code points. */
export function expectedSigningText(message: SignableMessage): string {
  return message.fields
    .map((f) => ({ path: f.path, pair: `${escapeSigningPart(f.path)}=${escapeSigningPart(f.value)}` }))
    .sort((a, b) => byCodePoints(a.path, b.path) || byCodePoints(a.pair, b.pair))
    .map((e) => e.pair)
    .join('&');
}
