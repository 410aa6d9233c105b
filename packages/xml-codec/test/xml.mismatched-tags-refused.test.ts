import { describe, expect, it } from 'vitest';
import { DecodeError, decodeCancelSubscription, decodeCardRespon } from '../src/index.ts';

describe('XML whose tags do not nest is refused with DecodeError, never read as a value', () => {
  it.each([
    ['a mismatched end tag', '<request><recurring_id>R1</request>'],
    ['an unclosed element', '<request><recurring_id>R1</recurring_id>'],
    ['an unclosed child', '<request><recurring_id>'],
    ['an end tag with no start', '<request></recurring_id></request>'],
    ['crossed elements', '<request><a><b></a></b></request>'],
    ['an unclosed tag', '<request><recurring_id'],
    ['an unclosed comment', '<request><!-- x </request>'],
  ])('%s', (_, xml) => {
    const decode = () => decodeCancelSubscription(xml, { root: null });
    expect(decode).toThrow(DecodeError);
    expect(decode).toThrow(expect.objectContaining({ details: expect.objectContaining({ failure: 'malformed' }) }));
  });

  it('still reads well-nested documents with comments, CDATA, self-closing elements and a declaration', () => {
    expect(decodeCancelSubscription('<?xml version="1.0"?><!-- c --><request><recurring_id><![CDATA[R<1>]]></recurring_id><contract_name/></request>')).toEqual(
      { recurring_id: 'R<1>', contract_name: '' },
    );
    expect(decodeCardRespon('<respon><order_status>1</order_status><note a="x>y"></note></respon>')).toMatchObject({ order_status: '1', note: '' });
  });
});
