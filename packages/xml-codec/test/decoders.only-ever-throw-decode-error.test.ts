import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeAlternativeRespon,
  decodeCancelSubscription,
  decodeCardRespon,
  decodeCheckoutPage,
  decodeItems,
  decodeRespon,
  DecodeError,
  encodeCheckoutPage,
  encodeItems,
  type DecodeOptions,
} from '../src/index.ts';
import { assertDecodedOrRefused, hostileInputs } from './support/hostile-inputs.ts';

const decoders: Record<string, (input: string) => unknown> = {
  decodeRespon: (input) => decodeRespon(input),
  decodeCardRespon: (input) => decodeCardRespon(input),
  decodeAlternativeRespon: (input) => decodeAlternativeRespon(input),
  decodeCancelSubscription: (input) => decodeCancelSubscription(input),
  decodeCancelSubscriptionAnyRoot: (input) => decodeCancelSubscription(input, { root: null }),
  decodeCheckoutPage: (input) => decodeCheckoutPage(input),
  decodeItems: (input) => decodeItems(input),
};

const xmlPieces = [
  '<',
  '>',
  '</',
  '/>',
  '<?xml version="1.0"?>',
  '<!DOCTYPE respon [<!ENTITY a "b">]>',
  '<!DOCTYPE x>',
  '<!ENTITY',
  '&a;',
  '&amp;',
  '&#',
  '&#x1F600;',
  '&#0;',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  'respon',
  'request',
  'risk_reasons',
  'risk_score',
  'name',
  'status',
  'issuer_url',
  'note',
  '__proto__',
  'constructor',
  'toString',
  'gw:',
  'xmlns:gw="u"',
  '12.5',
  'x',
  '#,#',
  '#;#',
  '<respon>',
  '</respon>',
  '<risk_score>',
  '</risk_score>',
  '<risk_reasons>',
  '</risk_reasons>',
  '<issuer_url>',
  '<note>',
  '</note>',
];
const htmlPieces = [
  '<form',
  '<FORM',
  ' action=',
  ' method=post',
  '<input',
  '<INPUT',
  ' type=hidden',
  " type='hidden'",
  ' name=',
  ' value=',
  '"',
  "'",
  '>',
  '/>',
  '</form>',
  '<script>',
  '</script>',
  '<script type="text/template">',
  'document.forms[0].submit()',
  '<!--',
  '-->',
  '<textarea>',
  '</textarea>',
  '&amp;',
  '&copy',
  '&#128;',
  '&#x0;',
  '&',
  '=',
  ' ',
  '\r\n',
  'allParams',
  '__proto__',
  'a=1&b=2',
  ' form=f',
  ' id=f',
  ' onload="submit()"',
  '<!DOCTYPE html>',
  '<',
  'x',
];
const xmlish = fc.array(fc.constantFrom(...xmlPieces), { maxLength: 40 }).map((parts) => parts.join(''));
const htmlish = fc.array(fc.constantFrom(...htmlPieces), { maxLength: 40 }).map((parts) => parts.join(''));

function onlyValueOrDecodeError(decode: (input: string) => unknown, input: string): void {
  try {
    decode(input);
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).code).toBe('GW_DECODE');
  }
}

describe('every decoder, on arbitrary input, returns a value or throws DecodeError and nothing else', () => {
  it.each(Object.entries(decoders))('%s on random strings', (_name, decode) => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (input) => onlyValueOrDecodeError(decode, input)),
      { numRuns: 300 },
    );
  });

  it.each(Object.entries(decoders))('%s on random XML-ish strings', (_name, decode) => {
    fc.assert(
      fc.property(xmlish, (input) => onlyValueOrDecodeError(decode, input)),
      { numRuns: 400 },
    );
  });

  it.each(Object.entries(decoders))('%s on random HTML-ish strings', (_name, decode) => {
    fc.assert(
      fc.property(htmlish, (input) => onlyValueOrDecodeError(decode, input)),
      { numRuns: 300 },
    );
  });
});

// 100,000 generated inputs per decoder on Node 24. Node 22 runs the published packages' tests again in CI
// to show they work there, with 5,000 of the same inputs. GW_RUNS overrides the count for a quick local run.
const RUNS = Number(process.env.GW_RUNS ?? (process.versions.node.startsWith('22') ? 5_000 : 100_000));
const examples = join(import.meta.dirname, '../../../spec/v1/examples');
const example = (name: string): string => readFileSync(join(examples, name), 'utf8');
// Short seeds mostly (mutations of them are cheap to decode), and the spec's examples.
const responSeeds = [
  '<respon><order_no>O1</order_no><risk_score>5</risk_score><risk_reasons><name>n</name><status>s</status></risk_reasons><note>a&amp;b</note></respon>',
  '<respon><order_no>O1</order_no><issuer_url>https://x/?a=1&amp;b=2</issuer_url><extra><a>1</a><a>2</a></extra></respon>',
  example('authoriseCard.response.xml'),
  example('authoriseAlternative.response.xml'),
];
// Short pages (the spec's 12 KB example is decoded by the spec-examples test; mutating it here would cost 10x the time).
const pageSeeds = [
  encodeCheckoutPage(
    [
      ['order_no', 'O-1'],
      ['note', '<&"\'>'],
    ],
    { action: '/pay?a=1&b=2' },
  ).replace(/<head>.*<\/head>\n/s, ''),
  '<form id=f action=/p method=post></form><input type=hidden name=a value=1 form=f><input type=hidden name=allParams value="a=1&amp;b=2"><script>document.forms[0].submit()</script>',
  '<body onload="document.forms[0].submit()"><FORM ACTION=\'/x\'><INPUT TYPE=HIDDEN NAME=order_no VALUE=&quot;1&quot;><!-- <form> --></FORM>',
];
const hostile: Record<string, { seeds: readonly string[]; decode: (input: string | Uint8Array, options: DecodeOptions) => unknown }> = {
  decodeRespon: { seeds: responSeeds, decode: (input, options) => decodeRespon(input, options) },
  decodeCardRespon: { seeds: responSeeds, decode: (input, options) => decodeCardRespon(input, options) },
  decodeAlternativeRespon: { seeds: responSeeds, decode: (input, options) => decodeAlternativeRespon(input, options) },
  decodeCancelSubscription: {
    seeds: [example('cancelSubscription.request.xml'), '<request><recurring_id>R</recurring_id><x/></request>'],
    decode: (input, options) => decodeCancelSubscription(input, options),
  },
  decodeCheckoutPage: { seeds: pageSeeds, decode: (input, options) => decodeCheckoutPage(input, options) },
  decodeItems: {
    seeds: [
      encodeItems([
        ['sku-1', 'Gadget', '2', '19.90'],
        ['__proto__', 'constructor', 'toString', ''],
      ]),
      '',
    ],
    decode: (input, options) => decodeItems(typeof input === 'string' ? input : new TextDecoder().decode(input), options),
  },
};

describe(`every decoder, on ${RUNS.toLocaleString('en')} near-valid and hostile inputs, returns a clean value or throws DecodeError`, () => {
  const protoNames = Object.getOwnPropertyNames(Object.prototype).sort();
  it.each(Object.entries(hostile))(
    '%s: mutated documents, deep nesting, bad UTF-8, prototype names, caps near the size',
    (_name, { seeds, decode }) => {
      fc.assert(
        fc.property(hostileInputs(seeds), ({ input, maxInputBytes }) => assertDecodedOrRefused(() => decode(input, { maxInputBytes }), 2_000)),
        { numRuns: RUNS },
      );
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoNames);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
    120_000,
  );

  it.each(Object.entries(hostile))(
    '%s: inputs at the 1 MiB cap and nesting 100,000 deep',
    (_name, { decode }) => {
      const cap = 1_048_576;
      const deep = (open: string, close: string, depth: number) => open.repeat(depth) + close.repeat(depth);
      const inputs = [
        `<respon>${'<x>1</x>'.repeat(Math.floor((cap - 17) / 8))}</respon>`,
        `<respon>${'<x>1</x>'.repeat(Math.floor((cap - 17) / 8) + 1)}</respon>`,
        `<respon>${deep('<a>', '</a>', 100_000)}</respon>`,
        deep('<div>', '</div>', 100_000),
        `<form>${'<input type=hidden name=__proto__ value=1>'.repeat(Math.floor(cap / 43))}</form>`,
        '#,#'.repeat(cap / 3),
        'a'.repeat(cap + 1),
      ];
      for (const input of inputs) assertDecodedOrRefused(() => decode(input, {}), 5_000);
    },
    60_000,
  );
});
