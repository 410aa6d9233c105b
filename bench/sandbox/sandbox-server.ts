// @gw/sandbox in its own process. GW_SANDBOX_STATE=FILE keeps its state in that SQLite file (`gw sandbox --state`).
import { startSandbox } from '@gw/sandbox';

const stateFile = process.env.GW_SANDBOX_STATE;
const sandbox = await startSandbox({ port: 0, ...(stateFile ? { stateFile } : {}) });
console.log(`PORT ${sandbox.port}`);
process.on('SIGTERM', () => void sandbox.stop().then(() => process.exit(0)));
