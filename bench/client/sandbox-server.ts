// @gw/sandbox in its own process, so the measured clients do not share its event loop.
import { startSandbox } from '@gw/sandbox';

const sandbox = await startSandbox({ port: 0 });
console.log(`PORT ${sandbox.port}`);
process.on('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
