/** Sets `target[name]`; a member named `__proto__` becomes an own member instead of replacing the prototype. */
export function setMember<V>(target: Record<string, V>, name: string, value: V): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
