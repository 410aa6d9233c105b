import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSignableMessage, hmacSha256SigningText } from '../src/index.ts';
import { allFixtures } from '../src/conformance/conformance-fixtures.ts';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

// The reference HMAC signer's signatures of the conformance records with the secret "sandbox-secret": any change of
// the signing text or the HMAC changes them.
const GOLDEN: Record<string, string> = {
  'capture request (3 orders)': '286b8d5687aa5af87c386fd8ee3d54d69925ed489573262afdd77b0e07dd623e',
  'card authorise request (cart_items, subscription)': '38bc7bf3c87ffc3a0fffb930b7b76c0a56f0493ceef6640601f7ef93664c5b75',
  'alternative authorise request (person.documents)': '26938f40715af89e14048453f3809debf289622e3f339150ad449ccbd7ae0669',
  'payout request (beneficiary, payer)': 'd2d0e82ecb3e7e9937a71007b65e812807d14f49604a12ca96a906c9bc10d4b0',
  'checkout request (unicode)': 'e29af0ffcdb0329a9c30a8ef9bf3a4507b9ba5a8c61267714fb43ec64dcad597',
  'capture request (empty ids, no orders)': 'a482f72b193d05646aa694fe4b2d438c9b9d9c8a32ad35150a87e73332b9c564',
  'card authorise request (empty values)': '033239f5dd4e5513b13252e3641adbeb31cf341ffb34a1a8d4b469c2cfdc1c81',
  'cancel subscription request (empty record)': 'f23d5df600ef3b9f0940a886c6076d6e316695c49833a631142f3a25f2b78148',
  'review request (100 orders)': 'c76b532a7d17286b38372074c5974f45088b4282d350addc9bf1fef812ccac07',
  'refund request (50 orders)': '67edccbe56efc8b1a5291bef6668ff3692eddde0d0a73a538b650652698680fc',
};

describe('the reference HMAC signer', () => {
  it('gives the golden signatures, each HMAC-SHA256 (node:crypto createHmac) of its signing text', () => {
    const signer = createHmacSha256Signer({ secret: 'sandbox-secret' });
    expect(Object.keys(GOLDEN)).toEqual(allFixtures.map((f) => f.name));
    for (const fixture of allFixtures) {
      const message = createSignableMessage({ operation: fixture.operation, record: fixture.record, body: '' });
      expect(signer.sign(message), fixture.name).toBe(GOLDEN[fixture.name]);
      expect(signer.sign(message)).toBe(createHmac('sha256', 'sandbox-secret').update(hmacSha256SigningText(message), 'utf8').digest('hex'));
      expect(signer.verify(message, GOLDEN[fixture.name]!)).toBe(true);
    }
  });

  // The probe signs and verifies card-bearing messages in a process of its own, lets go of them, collects garbage,
  // and searches every string and every ArrayBuffer still alive (closures included) for the card's digits. Two
  // planted defects (a signer keeping its last signing text in a scratch buffer, one keeping it as a string) show
  // that the search finds what is left behind.
  it('leaves the digits of a signed card number in no string and no buffer alive afterwards (so does the concatenating signer)', async () => {
    const { stdout } = await run(process.execPath, ['--expose-gc', '--conditions=@gw/source', './test/fixtures/card-digits-after-signing.probe.ts'], {
      cwd: packageRoot,
      timeout: 60_000,
    });
    const found = JSON.parse(stdout) as Record<'hmac' | 'concat' | 'leakyBuffer' | 'leakyString', { strings: number; buffers: number }>;
    expect(found.hmac).toEqual({ strings: 0, buffers: 0 });
    expect(found.concat).toEqual({ strings: 0, buffers: 0 });
    expect(found.leakyBuffer.buffers).toBeGreaterThan(0);
    expect(found.leakyString.strings).toBeGreaterThan(0);
  }, 90_000);
});
