import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../pack.ts';

/** Every `.ts` source text of a package, joined (generated files included: options can come from the spec). */
function sourcesOf(pkg: string): string {
  const dir = join(repoRoot, 'packages', pkg, 'src');
  if (!existsSync(dir)) return '';
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
}

/** The "Configurable by" paragraph of each UNKNOWNS entry that names a package, with the options it names. */
function namedOptions(): { point: string; option: string; packages: string[] }[] {
  const text = readFileSync(join(repoRoot, 'spec/v1/UNKNOWNS.md'), 'utf8');
  const found: { point: string; option: string; packages: string[] }[] = [];
  for (const entry of text.split(/^### /m).slice(1)) {
    const point = entry.slice(0, 3);
    const paragraph = /- \*\*Configurable by:\*\*([\s\S]*?)(?=\n- \*\*|\n\n|$)/.exec(entry)?.[1] ?? '';
    const packages = [...new Set([...paragraph.matchAll(/@gw\/([a-z-]+)/g)].map((m) => m[1]!))];
    if (packages.length === 0) continue;
    // An option is a backticked identifier, alone or opening an object shape (`notify: { attempts }`).
    for (const m of paragraph.matchAll(/`([a-zA-Z][a-zA-Z0-9]*)(?::[^`]*)?`/g)) if (!m[1]!.startsWith('gw')) found.push({ point, option: m[1]!, packages });
  }
  return found;
}

describe('spec/v1/UNKNOWNS.md', () => {
  const options = namedOptions();
  it('names options in its "Configurable by" parts', () => {
    expect(options.length).toBeGreaterThanOrEqual(15);
  });

  // A point that names an option a team cannot find sends it looking for something that does not exist.
  it('names only options that the packages it names declare', () => {
    const sources = new Map<string, string>();
    const missing = options.filter(
      ({ option, packages }) =>
        !packages.some((pkg) => {
          if (!sources.has(pkg)) sources.set(pkg, sourcesOf(pkg));
          return new RegExp(`\\b${option}\\??\\s*[:(]`).test(sources.get(pkg)!);
        }),
    );
    expect(missing.map(({ point, option, packages }) => `${point}: \`${option}\` is in none of ${packages.map((p) => `@gw/${p}`).join(', ')}`)).toEqual([]);
  });
});
