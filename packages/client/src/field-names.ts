// UNKNOWNS U09: the field literally named `the service` (and any other) can travel under another name.
import { copyRecordGraph, setMember } from '@gw/types';
import { moveNumberTexts } from './exact-numbers.ts';

/** Renames fields on the way out (TypeScript name → wire name) and back (wire name → TypeScript name), at any depth. */
export class FieldNames {
  readonly #toWire: ReadonlyMap<string, string>;
  readonly #fromWire: ReadonlyMap<string, string>;

  constructor(overrides: Readonly<Record<string, string>> = {}) {
    this.#toWire = new Map(Object.entries(overrides));
    this.#fromWire = new Map(Object.entries(overrides).map(([name, wire]) => [wire, name]));
  }

  /** True when any name is overridden. */
  get active(): boolean {
    return this.#toWire.size > 0;
  }

  /** The record as it goes on the wire. */
  toWire<T>(value: T): T {
    return this.active ? (this.#rename(value, this.#toWire, this.#fromWire) as T) : value;
  }

  /** The record with the TypeScript names back. When a response carries both a wire name and the name it stands for, the wire name's value wins. */
  fromWire<T>(value: T): T {
    return this.active ? (this.#rename(value, this.#fromWire, this.#toWire) as T) : value;
  }

  /** One field name translated back from the wire. */
  nameFromWire(name: string): string {
    return this.#fromWire.get(name) ?? name;
  }

  #rename(value: unknown, names: ReadonlyMap<string, string>, reverse: ReadonlyMap<string, string>): unknown {
    return copyRecordGraph(value, (source, out, copyOf) => {
      if (Array.isArray(source)) {
        for (const item of source) (out as unknown[]).push(copyOf(item));
        moveNumberTexts(source, out, (key) => key);
        return;
      }
      const record = source as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const renamed = names.get(key);
        if (renamed !== undefined) setMember(out as Record<string, unknown>, renamed, copyOf(record[key]));
        else if (!(reverse.has(key) && Object.hasOwn(record, reverse.get(key)!))) setMember(out as Record<string, unknown>, key, copyOf(record[key]));
      }
      moveNumberTexts(source, out, (key) => names.get(key) ?? key);
    });
  }
}
