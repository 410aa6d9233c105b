import type { ConformanceCheck } from './conformance-check.ts';
import { addRemoveFieldsCheck } from './checks/add-remove-fields.check.ts';
import { concurrencyCheck } from './checks/concurrency.check.ts';
import { contractCheck } from './checks/contract.check.ts';
import { determinismCheck } from './checks/determinism.check.ts';
import { emptyValuesCheck } from './checks/empty-values.check.ts';
import { encryptionDataExcludedCheck } from './checks/encryption-data-excluded.check.ts';
import { largeBatchesCheck } from './checks/large-batches.check.ts';
import { malformedSignaturesCheck } from './checks/malformed-signatures.check.ts';
import { nestedStructuresCheck } from './checks/nested-structures.check.ts';
import { otherSecretCheck } from './checks/other-secret.check.ts';
import { roundTripCheck } from './checks/round-trip.check.ts';
import { tamperEveryFieldCheck } from './checks/tamper-every-field.check.ts';
import { unicodeCheck } from './checks/unicode.check.ts';

/** Every check, in the order they run and are reported. */
export const conformanceChecks: readonly ConformanceCheck[] = [
  contractCheck,
  roundTripCheck,
  determinismCheck,
  tamperEveryFieldCheck,
  nestedStructuresCheck,
  addRemoveFieldsCheck,
  encryptionDataExcludedCheck,
  unicodeCheck,
  emptyValuesCheck,
  largeBatchesCheck,
  concurrencyCheck,
  malformedSignaturesCheck,
  otherSecretCheck,
];
