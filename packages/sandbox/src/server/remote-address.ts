/** An address as the allow-list compares it: an IPv4 address without the `::ffff:` of an IPv4-mapped IPv6 one. */
export function normaliseAddress(address: string | undefined): string {
  if (address === undefined) return '';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}
