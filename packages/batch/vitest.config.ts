import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// One throwaway PostgreSQL cluster per test run, for the ledger tests (each makes its own database in it).
export default mergeConfig(shared, defineConfig({ test: { globalSetup: ['test/pg/global-setup.ts'] } }));
