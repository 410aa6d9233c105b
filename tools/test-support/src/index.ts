// Helpers the workspace's tests share. Debian's Chromium is a subpath of its own (`@gw/test-support/chromium`), so a
// test that drives no browser loads no playwright-core.
export {
  authoriseOrders,
  ordersCsv,
  ORDERS_CSV_HEADER,
  type AuthoriseOptions,
  type AuthorisingClient,
  type CardPayment,
  type CaptureOrder,
} from './authorise-orders.ts';
export { orderNo } from './order-no.ts';
export { payoutRequest } from './payout-request.ts';
export { closedAfter, openSocket, type Closed } from './raw-socket.ts';
export { exampleScratch, readmeBlocks, readmeExamples, type ExampleRun, type ExampleScratch } from './readme-examples.ts';
export { until } from './until.ts';
