// JSON text of state entities that keeps bigint and Date: `{"$bigint":"123"}`, `{"$date":"2026-11-23T10:00:00.000Z"}`.

/** The JSON text of a state entity (plain data: strings, numbers, bigint, Date, arrays, plain objects). */
export function encodeEntity(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = key === '' ? value : this[key];
    if (typeof raw === 'bigint') return { $bigint: raw.toString() };
    if (raw instanceof Date) return { $date: raw.toISOString() };
    return v;
  });
}

/** A state entity from its JSON text. */
export function decodeEntity<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && typeof (v as { $bigint?: unknown }).$bigint === 'string') return BigInt((v as { $bigint: string }).$bigint);
      if (keys.length === 1 && typeof (v as { $date?: unknown }).$date === 'string') return new Date((v as { $date: string }).$date);
    }
    return v;
  }) as T;
}
