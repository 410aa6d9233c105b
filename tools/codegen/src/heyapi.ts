import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import type { SpecDocument } from './spec.ts';

/** Files written by @hey-api/openapi-ts, keyed by their path relative to its output folder. */
export type HeyApiOutput = Map<string, string>;

// Open sets: a string schema with x-gw-known-values becomes `'a' | 'b' | (string & {})`, which keeps
// editor completion for the known values; hey-api's own `'a' | string` collapses to `string`.
function openUnionResolver(ctx: any): unknown {
  const known = ctx.schema?.['x-gw-known-values'];
  if (!Array.isArray(known) || known.length === 0) return undefined;
  const $ = ctx.$;
  return $.type.or(...known.map((value: string) => $.type.literal(String(value))), $.type.and($.type('string'), $.type.object()));
}

function readTree(root: string, dir = root, out: HeyApiOutput = new Map()): HeyApiOutput {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) readTree(root, full, out);
    else out.set(relative(root, full).split('\\').join('/'), readFileSync(full, 'utf8'));
  }
  return out;
}

/**
 * Runs @hey-api/openapi-ts on a spec document and returns the files. Only its TypeScript plugin runs: the client
 * builds requests from the generated operation table, so no SDK functions or fetch runtime are generated or shipped.
 */
export async function runHeyApi(doc: SpecDocument): Promise<HeyApiOutput> {
  const work = mkdtempSync(join(tmpdir(), 'gw-heyapi-'));
  try {
    const input = join(work, 'openapi.json');
    writeFileSync(input, JSON.stringify(doc));
    await createClient({
      input,
      output: { path: join(work, 'out'), module: { extension: '.ts' } },
      parser: { transforms: { readWrite: false } },
      logs: { level: 'silent', file: false },
      plugins: [
        {
          name: '@hey-api/typescript',
          '~resolvers': { string: openUnionResolver },
          // Operation-level names get a suffix so they never collide with a record named `CaptureResponse`.
          // Record types keep the spec's component names, so the tables can name them.
          definitions: { case: 'preserve' },
          requests: '{{name}}OperationData',
          responses: { name: '{{name}}OperationResponses', response: '{{name}}OperationResponse' },
          errors: { name: '{{name}}OperationErrors', error: '{{name}}OperationError' },
        } as any,
      ],
    } as any);
    return readTree(join(work, 'out'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
