/** True for a promise (or any thenable): what a verifier, store or handler that may answer either way answered with. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
