import { createSignableMessage, type Signer } from '@gw/signer-interface';
import { operations, type OperationName } from '@gw/types';
import type { WireRecord } from '../../wire/wire-record.ts';
import { encodeResponseBody } from '../../wire/body.ts';
import { withoutSignature } from '../../wire/without-signature.ts';

/** Sign: the record with the `encryption_data` of `operation`'s response; as it is when that response is not signed. */
export async function signAnswer(signer: Signer, operation: OperationName, record: WireRecord): Promise<WireRecord> {
  const op = operations[operation];
  if (op.responseSignature === 'none') return record;
  // A handler's answer has no encryption_data (one copy less); one that has is signed without it.
  const unsigned = Object.hasOwn(record, 'encryption_data') ? withoutSignature(record) : record;
  const message = createSignableMessage({ operation, record: unsigned, body: () => encodeResponseBody(op, unsigned).body });
  return { ...unsigned, encryption_data: await signer.sign(message) };
}
