import { createRequire } from 'node:module';

/**
 * An optional peer dependency of the package at `fromUrl` (its `import.meta.url`), loaded as that package resolves it,
 * or null when the application did not install it. Synchronous, so a library can decide at construction whether a
 * feature that needs the peer (OpenTelemetry) is on, with nothing loaded when it is not.
 */
export function optionalPeer<T>(fromUrl: string, name: string): T | null {
  try {
    return createRequire(fromUrl)(name) as T;
  } catch (error) {
    // Absent only when the peer itself is not found: one installed whose own dependency is missing is a fault to show.
    const { code, message } = error as { code?: string; message?: string };
    if (code === 'MODULE_NOT_FOUND' && message?.split('\n')[0]?.includes(`'${name}'`)) return null;
    throw error;
  }
}
