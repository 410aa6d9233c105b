// The resource the CLI's telemetry describes itself with: its service name and the detectors that fill in the rest.
import { listOf } from './otel-list.ts';

// The process detector reports the command line, and `gw … --secret S` carries a secret: gw never runs it.
const SAFE_DETECTORS = ['env', 'host', 'os', 'serviceinstance'];

/** OTEL_NODE_RESOURCE_DETECTORS as the SDK gets it: `all` (the default) is every detector but `process`, which is dropped. */
export function resourceDetectorNames(env: NodeJS.ProcessEnv): string {
  const asked = listOf(env.OTEL_NODE_RESOURCE_DETECTORS);
  if (asked.length === 0 || asked.includes('all')) return SAFE_DETECTORS.join(',');
  if (asked.includes('none')) return 'none';
  return asked.filter((name) => name !== 'process').join(',') || 'none';
}

/** True when the environment names the service (OTEL_SERVICE_NAME, or `service.name` in OTEL_RESOURCE_ATTRIBUTES). */
export function serviceNamed(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SERVICE_NAME ?? '').trim() !== '') return true;
  return (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',').some((pair) => pair.split('=')[0]?.trim() === 'service.name');
}
