// The reference: a bare node:http server answering a fixed body, the ceiling any server on this machine can reach.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ merchant_id: 'M100200', account_id: 'A300400', return_status: '1', return_message: 'OK', capture_orders: [] });
// GW_BARE_DEFER=immediate answers from setImmediate (what @gw/sandbox did until issue 39), for reference.
const defer = process.env.GW_BARE_DEFER === 'immediate';
const answer = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => (defer ? setImmediate(answer, res) : answer(res)));
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
