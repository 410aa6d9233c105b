import { readFileSync, writeFileSync } from 'node:fs';
import { proposeSpecPatch, type DriftReport } from './src/index.ts';
const spec = readFileSync('../../spec/v1/openapi.yaml', 'utf8');
const at = '2026-03-04T05:06:07.000Z';
const e = (operation: string, path: string, seenType: string | null) => ({ operation, side: 'response' as const, kind: 'unknown-field' as const, path, message: '', count: 2, firstSeen: at, lastSeen: at, example: '', seenType });
const report: DriftReport = { type: 'gw-drift-report', version: 1, upstream: 'x', startedAt: at, updatedAt: at, signaturesChecked: true, exchanges: 3, unchecked: 0,
  drift: [e('capture', 'settlement_window', 'string'), e('capture', 'capture_orders[].fee', 'number'), e('authoriseCard', 'wallet', 'object'), e('authoriseCard', 'card', 'string'), e('query','orders_list[].x','array'), { ...e('capture', 'capture_orders[].amount', null), kind: 'missing-field' }],
  observations: { capture: { answers: 3, statuses: {}, contentTypes: {}, requestForms: {}, fields: { settlement_window: { places: 3, present: 2 } }, values: { 'capture_orders[].capture_status': { unknowns: 'U47', counts: { '1': 2, '0': 1 } }, return_message: { unknowns: 'U06', counts: { OK: 1, 'Partly done': 1 } } } },
    authoriseCard: { answers: 1, statuses: {}, contentTypes: {}, requestForms: {}, fields: {}, values: { order_status: { unknowns: 'U28', counts: { '1': 1, '7': 1 } } } } } };
const patch = proposeSpecPatch(spec, report);
console.log(JSON.stringify({ changes: patch.changes, skipped: patch.skipped }, null, 1));
writeFileSync('/tmp/patched.yaml', patch.text);
