// @gw/sandbox in its own process, with one authorised order for the benchmark's capture body to act on.
import { startSandbox } from '@gw/sandbox';

const sandbox = await startSandbox({ port: 0 });
console.log(`PORT ${sandbox.port}`);
process.on('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
