import { describe, expect, it } from 'vitest';
import * as codec from '../src/index.ts';

describe('@gw/xml-codec public exports', () => {
  it('are exactly these runtime values (types are pinned by the typecheck of dependants)', () => {
    expect(Object.keys(codec).sort()).toEqual([
      'DEFAULT_MAX_INPUT_BYTES',
      'DecodeError',
      'ITEM_COMPONENT_SEPARATOR',
      'ITEM_RECORD_SEPARATOR',
      'ItemsFormatError',
      'decodeAlternativeRespon',
      'decodeCancelSubscription',
      'decodeCardRespon',
      'decodeCheckoutPage',
      'decodeItems',
      'decodeRespon',
      'encodeCancelSubscription',
      'encodeCheckoutPage',
      'encodeItems',
      'encodeRequestBody',
      'encodeRespon',
    ]);
  });
});
