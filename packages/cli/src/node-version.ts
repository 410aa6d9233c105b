/** The oldest Node.js `gw` runs on: 22.18 runs TypeScript sources and has the fetch stack `@gw/client` uses. */
export const MINIMUM_NODE = { major: 22, minor: 18 } as const;

/** A plain message when `version` (as in `process.versions.node`) is too old for `gw`, else null. */
export function nodeTooOld(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor)) return null;
  return `gw needs Node.js ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or newer (22 LTS or 24); this is Node.js ${version}. Install a newer Node.js (https://nodejs.org) and run gw again.`;
}
