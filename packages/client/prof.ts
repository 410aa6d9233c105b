import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { RecordValidator } from '@gw/types';
import { encodeRequestBody } from '@gw/xml-codec';
import { createPreEncodedRuntime, callGenerated } from './src/generated-runtime.ts';
import { checkResponseSignature } from './src/verify-response.ts';
const signer = createHmacSha256Signer({ secret: 'gw-sandbox-secret' });
const record = { merchant_id: 'M100200', account_id: 'A300400', capture_orders: [{ transaction_id: 'T2026112200000001', order_no: 'BENCH-1', currency: 'USD', amount: '10.00' }] };
const v = new RecordValidator();
function time(name: string, fn: () => unknown, n = 20000) { for (let i = 0; i < 2000; i++) fn(); const t = performance.now(); for (let i = 0; i < n; i++) fn(); console.log(name, ((performance.now() - t) / n * 1000).toFixed(2), 'µs'); }
async function timeA(name: string, fn: () => Promise<unknown>, n = 20000) { for (let i = 0; i < 2000; i++) await fn(); const t = performance.now(); for (let i = 0; i < n; i++) await fn(); console.log(name, ((performance.now() - t) / n * 1000).toFixed(2), 'µs'); }
time('validate', () => v.requestProblems('capture', record));
time('sign', () => signer.sign(createSignableMessage({ operation: 'capture', record, body: () => encodeRequestBody('capture', record) })));
time('encode', () => encodeRequestBody('capture', { ...record, encryption_data: 'x' }));
const resp = '{"merchant_id":"M100200","account_id":"A300400","return_status":"1","return_message":"OK","capture_orders":[{"transaction_id":"T2026112200000001","order_no":"BENCH-1","currency":"USD","amount":"10.00","capture_status":"0","error_message":"E101:no such order"}],"encryption_data":"4a2deb08caf7b3a9372437fa33c77104d8d5d581ad4d92931c8c2ff5e09c7b8a"}';
time('parse', () => JSON.parse(resp));
await timeA('verify', () => checkResponseSignature('capture', JSON.parse(resp), signer));
time('new Request', () => new Request('http://127.0.0.1:1/v1/capture', { method: 'POST', body: resp, headers: { 'content-type': 'application/json' } }));
time('new Response', () => new Response(Buffer.from(resp), { status: 200 }));
await timeA('Response.text', () => new Response(Buffer.from(resp), { status: 200 }).text());
const runtime = createPreEncodedRuntime('http://127.0.0.1:1');
const buf = Buffer.from(resp);
await timeA('generated runtime (fake fetch)', () => callGenerated('capture', { client: runtime, body: resp, bodySerializer: null, parseAs: 'text', headers: {}, fetch: async (r) => { const h: Record<string,string> = {}; r.headers.forEach((v, k) => { h[k] = v; }); void r.url; return new Response(buf, { status: 200 }); } }));
const body = Buffer.from(JSON.stringify(record));
time('new Request buffer body', () => new Request('http://127.0.0.1:1/v1/capture', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
time('new Request no headers', () => new Request('http://127.0.0.1:1/v1/capture', { method: 'POST', body: resp }));
time('new Headers', () => new Headers({ 'content-type': 'application/json' }));
const shared = new Headers();
class Buffered { status: number; b: Buffer; constructor(status: number, b: Buffer) { this.status = status; this.b = b; } get ok() { return this.status >= 200 && this.status < 300 } headers = shared; async text() { return this.b.toString('utf8') } }
await timeA('generated runtime (light response)', () => callGenerated('capture', { client: runtime, body: resp, bodySerializer: null, parseAs: 'text', headers: {}, fetch: async (r) => { const h: Record<string,string> = {}; r.headers.forEach((v, k) => { h[k] = v; }); void r.url; return new Buffered(200, buf) as unknown as Response; } }));
await timeA('generated runtime (light, buffer body)', () => callGenerated('capture', { client: runtime, body: body as never, bodySerializer: null, parseAs: 'text', headers: {}, fetch: async (r) => { const h: Record<string,string> = {}; r.headers.forEach((v, k) => { h[k] = v; }); void r.url; return new Buffered(200, buf) as unknown as Response; } }));
