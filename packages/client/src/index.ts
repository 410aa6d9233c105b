export * as generatedOperations from './generated/openapi/sdk.gen.ts';
