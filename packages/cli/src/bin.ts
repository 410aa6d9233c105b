#!/usr/bin/env node
// Only modules without dependencies are imported statically: on a Node.js too old for gw (20 dies inside undici with
// a TypeError) this file still loads and says so plainly; the program is imported only once the version is known good.
import { EXIT_CODES } from './exit-codes.ts';
import { nodeTooOld } from './node-version.ts';
import { dropOwnExperimentalWarnings } from './own-experimental-warnings.ts';

const tooOld = nodeTooOld(process.versions.node);
if (tooOld === null) {
  dropOwnExperimentalWarnings();
  const { main } = await import('./main.ts');
  process.exitCode = await main();
} else {
  process.stderr.write(`${tooOld}\n`);
  process.exitCode = EXIT_CODES.unsupportedNode;
}
