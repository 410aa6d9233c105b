import { describe, expect, it } from 'vitest';
import { buildOperationRows, collectSecretFields } from '../src/tables.ts';
import { signedJsonOperation } from './support/new-operation.ts';

function miniSpec(overrides: Record<string, unknown> = {}, maxItems = 50) {
  return {
    openapi: '3.1.0',
    paths: {
      '/v1/capture': {
        post: {
          operationId: 'capture',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Req' } } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Res' } } } } },
          ...signedJsonOperation('money-moving', { name: 'capture', request: 'Req', response: 'Res' }),
          'x-gw-batch': { array: 'capture_orders', limit: 50, statusField: 'capture_status', errorField: 'error_message' },
          ...overrides,
        },
      },
    },
    components: {
      schemas: {
        Req: { type: 'object', properties: { card: { type: 'string', 'x-gw-secret': true }, capture_orders: { type: 'array', maxItems, items: {} } } },
        Res: { type: 'object', properties: { capture_orders: { type: 'array', items: {} } } },
      },
    },
  };
}

describe('the x-gw table generator', () => {
  it('reads a consistent operation into one table row', () => {
    const [row] = buildOperationRows(miniSpec());
    expect(row).toMatchObject({
      name: 'capture',
      path: '/v1/capture',
      requestEncoding: 'json',
      requestEncodingDeclared: true,
      requestMediaType: 'application/json',
      retryClass: 'money-moving',
      batch: {
        array: 'capture_orders',
        responseArray: 'capture_orders',
        limit: 50,
        statusField: 'capture_status',
        errorField: 'error_message',
        separator: null,
      },
    });
    expect(collectSecretFields(miniSpec())).toEqual(['card']);
  });

  it.each([
    ['an unknown request encoding', { 'x-gw-request-encoding': 'protobuf' }, 50, /x-gw-request-encoding: expected one of json \| form \| xml/],
    [
      'a request encoding not said to be declared or not',
      { 'x-gw-request-encoding-declared': 'yes' },
      50,
      /x-gw-request-encoding-declared: expected a boolean/,
    ],
    ['an unknown retry class', { 'x-gw-retry-class': 'sometimes' }, 50, /x-gw-retry-class/],
    ['a batch limit that differs from maxItems', {}, 60, /maxItems \(60\) differs from limit 50/],
    ['a variant naming a missing schema', { 'x-gw-variants': [{ name: 'capture', request: 'Nope', response: 'Res' }] }, 50, /request schema "Nope"/],
    ['a batch array the request lacks', { 'x-gw-batch': { array: 'orders', limit: 50, statusField: 's' } }, 50, /Req has no member orders/],
    ['no variants', { 'x-gw-variants': [] }, 50, /list at least one variant/],
  ])('refuses %s', (_, overrides, maxItems, message) => {
    expect(() => buildOperationRows(miniSpec(overrides, maxItems))).toThrow(message);
  });
});
