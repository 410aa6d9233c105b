/** The entries of a comma-separated OTEL_* list, trimmed and lower-cased, empty ones dropped. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}
