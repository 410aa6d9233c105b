import fc from 'fast-check';
import type { ElementPlan, RecordPlan } from '../src/element-plan.ts';

/** Any string XML and HTML can carry, including markup characters, entity look-alikes, CR, tabs and astral characters. */
export const wireText = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.string({
      unit: fc.constantFrom('&', '<', '>', '"', "'", ';', '#', 'amp', '&amp;', '&#13;', ']]>', '\r', '\n', '\t', ' ', 'a', 'é', '😀', '\u00a0'),
      maxLength: 10,
    }),
  );

/** Strings from every code point, lone surrogates and control characters included. */
export const anyText = (): fc.Arbitrary<string> => fc.string({ unit: 'binary', maxLength: 10 });

function valueFor(plan: ElementPlan, text: () => fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  switch (plan.kind) {
    case 'text':
      return text();
    case 'number':
      // -0 is written as "0": the one number whose sign the text cannot keep.
      return plan.integer ? fc.integer() : fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
    case 'record': {
      // `{}` and `''` are the same empty element, which decodes as `''` where the spec allows it.
      const record = recordFor(plan, text);
      return plan.emptyAsText
        ? fc.oneof(
            record.filter((r) => Object.keys(r).length > 0),
            fc.constant(''),
          )
        : record;
    }
  }
}

/** Records whose properties are the plan's elements, each present or not, typed as the plan says. */
export function recordFor(plan: RecordPlan, text: () => fc.Arbitrary<string> = wireText): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, child] of plan.children) model[name] = valueFor(child, text);
  return fc.record(model, { requiredKeys: [], noNullPrototype: true });
}
