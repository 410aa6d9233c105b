/** What changed in the sandbox's state: what a state store writes (orders, subscriptions, payouts, notifications, ledger). */
export type StateChange =
  | { readonly kind: 'order' | 'subscription' | 'payout'; readonly key: string }
  | { readonly kind: 'notification'; readonly id: number }
  | { readonly kind: 'ledger' }
  | { readonly kind: 'reset' };

/** Told of every change to the state, synchronously. */
export type StateListener = (change: StateChange) => void;

/** A Map that tells a listener of every key set or deleted: the state's subscriptions and payouts. */
export class ObservedMap<V> extends Map<string, V> {
  #changed: (key: string) => void = () => {};

  /** Tells `changed` of every key set or deleted from now on. */
  observe(changed: (key: string) => void): void {
    this.#changed = changed;
  }

  override set(key: string, value: V): this {
    super.set(key, value);
    this.#changed?.(key);
    return this;
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    if (had) this.#changed(key);
    return had;
  }
}
