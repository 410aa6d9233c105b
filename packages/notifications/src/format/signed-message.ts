import { createSignableMessage, type SignableMessage } from '@gw/signer-interface';
import type { OperationName } from '@gw/types';

/**
 * What the default format signs: the signed time and the body text, so that any `Signer` covers exactly the delivered
 * bytes. A field-based signer sees two fields, `t` and `payload` (the whole body text); a body-based signer sees the
 * bytes `<t>.<body>`. The operation is the one whose result the event carries.
 */
export function notificationMessage(operation: OperationName, t: string, bodyText: string): SignableMessage {
  return createSignableMessage({ operation, record: { t, payload: bodyText }, body: () => `${t}.${bodyText}` });
}
