// Reads the field names out of section 2 of the seed (the interface text): table first columns, the 2.6 field
// columns, member lists in prose, and backticked names. Test helper only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '../../..');
export const seedPath = join(repoRoot, 'spec/v1/seed/000_8338e56ac111cfbc.txt');

const NOT_FIELDS = new Set(['date', 'strings', 'string', 'object', 'objects', 'array', 'number', 'integer']);
// Backticked values, not names: the spec carries them as x-gw-known-values.
const VALUES = new Set(['do3DS']);
const IDENT = /^[a-z][a-zA-Z0-9_]*$/;

function identifiers(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/[,():;.]/)) {
    const t = piece.trim().replace(/^and /, '');
    if (t === 'the service') out.push(t);
    else if (IDENT.test(t) && !NOT_FIELDS.has(t)) out.push(t);
    else if (/\s/.test(t) && /^[a-z]+_[a-z0-9_]+$/.test(t.split(/\s+/).pop()!)) out.push(t.split(/\s+/).pop()!);
  }
  for (const m of text.matchAll(/`([a-zA-Z_][a-zA-Z0-9_.]*)`/g)) {
    const name = m[1]!.split('.').pop()!;
    if (/[a-z]/.test(name) && /_|^[a-z]+$|[a-z][A-Z]/.test(name) && !['day', 'respon'].includes(name)) out.push(name);
  }
  return out;
}

/** Field names per subsection of seed section 2 ("2.1" ... "2.8"). */
export function seedFieldsBySection(): Map<string, Set<string>> {
  const text = readFileSync(seedPath, 'utf8');
  const body = text.slice(text.indexOf('## 2. Resources'), text.indexOf('## 3. States'));
  const sections = new Map<string, Set<string>>();
  let current = '';
  for (const line of body.split('\n')) {
    const heading = /^### (2\.\d)/.exec(line);
    if (heading) {
      current = heading[1]!;
      sections.set(current, new Set());
      continue;
    }
    if (!current) continue;
    const set = sections.get(current)!;
    if (line.startsWith('|')) {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      if (cells.every((c) => /^-+$/.test(c)) || ['Field', 'Element', 'Operation'].includes(cells[0]!)) continue;
      if (current === '2.6') {
        for (const cell of cells.slice(1, 4)) identifiers(cell.replace(/\(text `[^`]*`\)/g, '')).forEach((f) => set.add(f));
      } else {
        identifiers(cells[0]!.replaceAll('`', '')).forEach((f) => set.add(f));
        // Notes name nested members in backticks (`basic_item_data`, `mpi_info`, ...).
        for (const m of (cells[2] ?? '').matchAll(/`([a-z][a-zA-Z0-9_]*)`/g)) {
          if (VALUES.has(m[1]!)) continue;
          if (
            !/^[a-z]+$/.test(m[1]!) ||
            ['status', 'name', 'quantity', 'type', 'category', 'price', 'currency', 'contract', 'interval', 'email', 'created', 'eci', 'cavv', 'xid'].includes(
              m[1]!,
            )
          )
            set.add(m[1]!);
        }
        if (/member|Each element/.test(cells[2] ?? '') || /^(object|array)$/.test(cells[1] ?? ''))
          identifiers((cells[2] ?? '').replace(/^[^:]*:/, '')).forEach((f) => set.add(f));
      }
    } else if (/members|^- `|^Carries these fields/.test(line)) {
      identifiers(line.replace(/^[^:]*:/, '')).forEach((f) => set.add(f));
      for (const m of line.matchAll(/`([a-z][a-zA-Z0-9_.]*)`/g)) set.add(m[1]!.split('.').pop()!);
    } else if (current === '2.7' && /^(Request|Response):/.test(line)) {
      identifiers(line.replace(/^[^:]*:/, '').replace(/the same four identifying fields plus/, '')).forEach((f) => set.add(f));
    } else if (line.includes('root element `respon` and children')) {
      identifiers(line.slice(line.indexOf('children') + 8)).forEach((f) => set.add(f));
    } else if (line.includes('hidden fields')) {
      identifiers(line.replace(/^[^:]*:/, '').replace(/and similar/, '')).forEach((f) => set.add(f));
    }
  }
  return sections;
}
