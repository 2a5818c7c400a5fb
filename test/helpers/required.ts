// Suites that need something a machine may lack (PostgreSQL 15 for the team hub, the Python environment of
// scripts/python-env.mjs) are skipped where it is missing, and say why. In CI they must not be: .ci/run
// exports ARBITER_REQUIRE_ALL=1, and then a suite that would be skipped fails instead, naming the reason,
// so a run never passes with the hub's or Python's suites quietly left out.

/** Whether every suite must run (ARBITER_REQUIRE_ALL=1): a missing requirement is a failure, not a skip. */
export function requireAll(): boolean {
  return process.env.ARBITER_REQUIRE_ALL === '1';
}

/**
 * The reason a suite cannot run here, passed through: null when it can. Under ARBITER_REQUIRE_ALL=1 a
 * reason throws instead (the test file fails when it loads). It prints nothing; see skipOrFail.
 */
export function failIfRequired(suite: string, reason: string | null | undefined): string | null {
  if (!reason) return null;
  if (requireAll()) {
    throw new Error(`${suite} cannot run here: ${reason}. ARBITER_REQUIRE_ALL=1 (set by .ci/run) needs every suite to run; unset it to skip this one.`);
  }
  return reason;
}

/** failIfRequired, and where the suite is skipped the reason is printed. */
export function skipOrFail(suite: string, reason: string | null | undefined): string | null {
  const skipped = failIfRequired(suite, reason);
  if (skipped) console.warn(`${suite} skipped: ${skipped}`);
  return skipped;
}
