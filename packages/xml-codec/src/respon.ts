import { operations, type AlternativeRespon, type CardRespon } from '@gw/types';
import { DecodeError } from './decode-error.ts';
import { readDecodeInput, type DecodeInput, type DecodeOptions } from './decode-options.ts';
import { buildRecordPlan, type RecordPlan } from './element-plan.ts';
import { decodeRecord, encodeXmlRecord, parseRootElement } from './xml-record.ts';

/** The two `respon` documents of `/v1/authorise`. */
export type ResponVariant = 'card' | 'alternative';

/** A decoded `respon`, tagged with the variant it was read as. */
export type DecodedRespon = { readonly variant: 'card'; readonly respon: CardRespon } | { readonly variant: 'alternative'; readonly respon: AlternativeRespon };

/** Options of `encodeRespon`. */
export interface EncodeResponOptions {
  /** Which schema orders and types the elements; by default `alternative` when the record has `issuer_url`. */
  readonly variant?: ResponVariant;
}

interface VariantTable {
  readonly operation: 'authoriseCard' | 'authoriseAlternative';
  readonly root: string;
  readonly plan: RecordPlan;
}

const card = operations.authoriseCard;
const alternative = operations.authoriseAlternative;
const variants: Readonly<Record<ResponVariant, VariantTable>> = {
  card: { operation: card.name, root: card.xmlRoot, plan: buildRecordPlan(card.responseSchema) },
  alternative: { operation: alternative.name, root: alternative.xmlRoot, plan: buildRecordPlan(alternative.responseSchema) },
};

// UNKNOWNS U34: a respon carrying an element only the alternative schema has (`issuer_url`) is the alternative variant.
const alternativeMarkers = [...variants.alternative.plan.children.keys()].filter((name) => !variants.card.plan.children.has(name));

function hasMarker(record: object): boolean {
  return alternativeMarkers.some((name) => (record as Record<string, unknown>)[name] !== undefined);
}

function decodeAs<T>(variant: VariantTable, xml: DecodeInput, options: DecodeOptions | undefined): T {
  const text = readDecodeInput(xml, options, 'xml');
  const { name, value } = parseRootElement(text, variant.root);
  return decodeRecord(value, variant.plan, name) as T;
}

/** Decodes a `respon` document of either variant: `alternative` when it carries `issuer_url`, `card` otherwise. */
export function decodeRespon(xml: DecodeInput, options?: DecodeOptions): DecodedRespon {
  const text = readDecodeInput(xml, options, 'xml');
  const sameRoot = variants.card.root === variants.alternative.root;
  const { name, value } = parseRootElement(text, sameRoot ? variants.card.root : null);
  const isAlternative = sameRoot ? typeof value === 'object' && value !== null && hasMarker(value) : name === variants.alternative.root;
  if (!sameRoot && !isAlternative && name !== variants.card.root) {
    throw new DecodeError(
      { format: 'xml', failure: 'root', path: name },
      `the root element is <${name}>, expected <${variants.card.root}> or <${variants.alternative.root}>`,
    );
  }
  if (isAlternative) return { variant: 'alternative', respon: decodeRecord(value, variants.alternative.plan, name) as AlternativeRespon };
  return { variant: 'card', respon: decodeRecord(value, variants.card.plan, name) as CardRespon };
}

/** Decodes the card-variant `respon` (`authoriseCard`); elements it does not list are kept as extra properties. */
export function decodeCardRespon(xml: DecodeInput, options?: DecodeOptions): CardRespon {
  return decodeAs<CardRespon>(variants.card, xml, options);
}

/** Decodes the alternative-method `respon` (`authoriseAlternative`); elements it does not list are kept. */
export function decodeAlternativeRespon(xml: DecodeInput, options?: DecodeOptions): AlternativeRespon {
  return decodeAs<AlternativeRespon>(variants.alternative, xml, options);
}

/** Encodes a `respon` record as XML in spec element order; a value the XML cannot carry raises `ValidationError`. */
export function encodeRespon(record: CardRespon | AlternativeRespon, options?: EncodeResponOptions): string {
  const variant = variants[options?.variant ?? (hasMarker(record) ? 'alternative' : 'card')];
  return encodeXmlRecord(record, variant.plan, variant.root, variant.operation);
}
