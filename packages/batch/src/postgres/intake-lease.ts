/** The longest an intake lease runs unrenewed: a process killed while it takes input in has it taken over this soon. */
export const INTAKE_LEASE_MAX_MS = 10_000;

/** The ledger's side of the lease: take or renew it (true while this holder has it), hand it back. */
export interface IntakeLeaseStatements {
  readonly take: (leaseMs: number) => Promise<boolean>;
  readonly release: () => Promise<void>;
}

/** A batch's intake lease held by this process: renewed every third of its length until released. */
export interface HeldIntakeLease {
  readonly release: () => Promise<void>;
}

/**
 * Takes the batch's intake lease (null while another live process holds it) and keeps it renewed. A renewal that fails
 * or finds the lease gone only stops renewing: the intake mark keeps a second process from writing over this one.
 */
export async function takeIntakeLease(statements: IntakeLeaseStatements, leaseMs: number): Promise<HeldIntakeLease | null> {
  const length = Math.min(leaseMs, INTAKE_LEASE_MAX_MS);
  if (!(await statements.take(length))) return null;
  let renewing = true;
  const timer = setInterval(
    () => {
      statements.take(length).then(
        (held) => {
          if (!held) clearInterval(timer);
        },
        () => {},
      );
    },
    Math.max(1, Math.floor(length / 3)),
  );
  timer.unref();
  return {
    release: async () => {
      if (!renewing) return;
      renewing = false;
      clearInterval(timer);
      await statements.release().catch(() => {});
    },
  };
}
