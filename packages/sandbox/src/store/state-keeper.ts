// What an answer that reports a change waits for: the change kept in the state file. In memory there is nothing to wait for.

/** Changes a state file could not keep (a full disk, an I/O error): undone in memory too, so nothing answered claims them. */
export class StateNotKeptError extends Error {
  override readonly name = 'StateNotKeptError';
  readonly file: string;

  constructor(file: string, cause: unknown) {
    super(
      `the state file ${file} could not be written (${cause instanceof Error ? cause.message : String(cause)}); nothing of this request was kept or applied`,
      { cause },
    );
    this.file = file;
  }
}

/** Where the state's changes are kept: counts them, and tells an answer whether the ones it reports were kept. */
export interface StateKeeper {
  /** Changes made so far: read before the work of a request, to know later whether it changed anything. */
  readonly changeCount: number;
  /**
   * Calls `answer` once the changes made after `before` (up to now) are kept (null), or could not be written and were
   * undone (the error): at once when there is nothing to wait for.
   */
  afterKept(before: number, answer: (failure: StateNotKeptError | null) => void): void;
}

/** State in memory only: nothing to wait for. */
export const MEMORY_KEEPER: StateKeeper = { changeCount: 0, afterKept: (_before, answer) => answer(null) };

/** Runs `write` when the request changed nothing since `before` or its changes were kept; `refuse` when they were not. */
export function answerWhenKept(keeper: StateKeeper, before: number, write: () => void, refuse: (failure: StateNotKeptError) => void): void {
  if (keeper.changeCount === before) return write();
  keeper.afterKept(before, (failure) => (failure ? refuse(failure) : write()));
}
