// The spec as the packages read it at run time: its component schemas through the one walker, and its operations by
// the path they are served at, with the rule that tells the variants of a path apart (UNKNOWNS U34).
import { operations } from '../generated/operations.gen.ts';
import { specSchemas } from '../generated/spec-schemas.gen.ts';
import type { OperationSpec } from '../operation-spec.ts';
import { SchemaWalker, type SchemaNode } from './schema-walker.ts';

/** The spec's component schemas (the generated `specSchemas`), read through the one walker. */
export const specSchema = new SchemaWalker((specSchemas as { $defs: Record<string, SchemaNode> }).$defs, '#/$defs/');

/** The operations served at each path of the spec (authorise has two variants, UNKNOWNS U34), in the table's order. */
export const operationsByPath: ReadonlyMap<string, readonly OperationSpec[]> = byPath(Object.values(operations) as OperationSpec[]);

function byPath(specs: readonly OperationSpec[]): Map<string, OperationSpec[]> {
  const paths = new Map<string, OperationSpec[]>();
  for (const op of specs) paths.set(op.path, [...(paths.get(op.path) ?? []), op]);
  return paths;
}

/** The variant of a path a record is (UNKNOWNS U34): the one whose `selectWhenPresent` member it has, else the one without such a member. */
export function variantOf(variants: readonly OperationSpec[], record: Readonly<Record<string, unknown>> | null): OperationSpec {
  return (
    (record && variants.find((v) => v.selectWhenPresent && Object.hasOwn(record, v.selectWhenPresent))) ||
    variants.find((v) => !v.selectWhenPresent) ||
    variants[0]!
  );
}
