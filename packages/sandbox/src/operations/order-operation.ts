import type { operations } from '@gw/types';

type Operations = typeof operations;

/**
 * An operation that acts on a list of existing orders and moves money (capture, cancel, review, refund): every
 * operation of the generated table with a batch row and the money-moving retry class, as @gw/batch reconciles them.
 */
export type OrderOperation = {
  [K in keyof Operations]: Operations[K]['batch'] extends null ? never : Operations[K]['retryClass'] extends 'money-moving' ? K : never;
}[keyof Operations];
