import type { OperationName } from '@gw/types';
import type { SandboxOrder } from '../state/state.ts';

/** The operation an order of each variant was created by: what its notifications and return parameters are signed as. */
export const VARIANT_OPERATION: Readonly<Record<SandboxOrder['variant'], OperationName>> = Object.freeze({
  card: 'authoriseCard',
  alternative: 'authoriseAlternative',
  checkout: 'checkout',
});
