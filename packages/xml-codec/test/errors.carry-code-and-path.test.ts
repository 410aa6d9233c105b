import { GwError, isGwError } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { decodeCardRespon, DecodeError, encodeItems, ItemsFormatError } from '../src/index.ts';
import { thrown } from './thrown.ts';

describe('DecodeError', () => {
  it('is a GwError with code GW_DECODE, its own name, a failure kind and a path, all in toJSON', () => {
    const error = thrown(() => decodeCardRespon('<respon><risk_score>NaN</risk_score></respon>')) as DecodeError;
    expect(error).toBeInstanceOf(GwError);
    expect(isGwError(error)).toBe(true);
    expect(error.name).toBe('DecodeError');
    expect(error.code).toBe('GW_DECODE');
    expect(error.failure).toBe('type');
    expect(error.path).toBe('respon.risk_score');
    expect(error.toJSON()).toEqual({
      name: 'DecodeError',
      code: 'GW_DECODE',
      message: error.message,
      details: { format: 'xml', failure: 'type', path: 'respon.risk_score' },
    });
  });

  it('never repeats element text in its message', () => {
    const error = thrown(() => decodeCardRespon('<respon><risk_score>4111111111111111x</risk_score></respon>')) as DecodeError;
    expect(error.message).not.toContain('4111');
    expect(JSON.stringify(error)).not.toContain('4111');
  });

  it('keeps the parser failure as its cause', () => {
    const error = thrown(() => decodeCardRespon('<!DOCTYPE respon [<!ENTITY a "b">]><respon>&a;</respon>')) as DecodeError;
    expect(error.failure).toBe('doctype');
    expect(error.cause).toBeInstanceOf(Error);
  });
});

describe('ItemsFormatError', () => {
  it('is a GwError with code GW_ITEMS and its own name', () => {
    const error = thrown(() => encodeItems([['a#,#b', 'c', 'd', 'e']])) as ItemsFormatError;
    expect(error).toBeInstanceOf(GwError);
    expect(error.name).toBe('ItemsFormatError');
    expect(error.code).toBe('GW_ITEMS');
    expect(error.message).toContain('items[0][0]');
  });
});
