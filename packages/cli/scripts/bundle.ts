// Bundles the built CLI (dist/bin.js and everything it imports, the @gw packages and their dependencies included) into
// dist/bundle/: one entry file, gw.js, that bin/gw.js runs, and a chunk per command, so `gw batch` compiles and
// resolves a few files instead of ~650 modules and starts in about a third of the time. Each command still loads only
// what it runs (commands are chunks of their own, imported when needed). Run by `build`, after tsc.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist', 'bundle');

/** Writes dist/bundle/gw.js and its chunks from dist/bin.js. */
export async function bundleCli(): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  await build({
    input: { gw: join(root, 'dist', 'bin.js') },
    platform: 'node',
    logLevel: 'warn',
    // The OpenTelemetry SDK stays a package Node loads from node_modules, and only when OTEL_* asks for it
    // (src/telemetry/start-telemetry.ts): bundled, it would be hundreds of modules (gRPC, protobuf) in a chunk.
    external: ['@opentelemetry/sdk-node'],
    output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
  });
}

await bundleCli();
