// The ledger's statements as spans: @opentelemetry/instrumentation-pg enabled before `pg` is first loaded. Import
// this module first in a test file: it patches pg's `lib/client.js` and `pg-pool` as pg's own index requires them
// (CommonJS, through require-in-the-middle), which works for the ledger's ESM `import pg from 'pg'` without a loader
// hook, as long as nothing loaded pg before.
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Spans only for statements made under a span (the batch's), not for the test's own database set-up. */
export const pgInstrumentation = new PgInstrumentation({ requireParentSpan: true });
