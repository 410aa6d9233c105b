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
} from '../src/index.ts';

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
  '<', '>', '</', '/>', '<?xml version="1.0"?>', '<!DOCTYPE respon [<!ENTITY a "b">]>', '<!DOCTYPE x>', '<!ENTITY', '&a;', '&amp;', '&#',
  '&#x1F600;', '&#0;', '<![CDATA[', ']]>', '<!--', '-->', '"', "'", '=', ' ', '\n', 'respon', 'request', 'risk_reasons', 'risk_score',
  'name', 'status', 'issuer_url', 'note', '__proto__', 'constructor', 'toString', 'gw:', 'xmlns:gw="u"', '12.5', 'x', '#,#', '#;#',
  '<respon>', '</respon>', '<risk_score>', '</risk_score>', '<risk_reasons>', '</risk_reasons>', '<issuer_url>', '<note>', '</note>',
];
const htmlPieces = [
  '<form', '<FORM', ' action=', ' method=post', '<input', '<INPUT', ' type=hidden', " type='hidden'", ' name=', ' value=', '"', "'",
  '>', '/>', '</form>', '<script>', '</script>', '<script type="text/template">', 'document.forms[0].submit()', '<!--', '-->',
  '<textarea>', '</textarea>', '&amp;', '&copy', '&#128;', '&#x0;', '&', '=', ' ', '\r\n', 'allParams', '__proto__', 'a=1&b=2',
  ' form=f', ' id=f', ' onload="submit()"', '<!DOCTYPE html>', '<', 'x',
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
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (input) => onlyValueOrDecodeError(decode, input)), { numRuns: 300 });
  });

  it.each(Object.entries(decoders))('%s on random XML-ish strings', (_name, decode) => {
    fc.assert(fc.property(xmlish, (input) => onlyValueOrDecodeError(decode, input)), { numRuns: 400 });
  });

  it.each(Object.entries(decoders))('%s on random HTML-ish strings', (_name, decode) => {
    fc.assert(fc.property(htmlish, (input) => onlyValueOrDecodeError(decode, input)), { numRuns: 300 });
  });
});
