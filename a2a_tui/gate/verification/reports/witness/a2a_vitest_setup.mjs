// a2a's vitest setup file (--setupFiles="$A2A_VITEST_SETUP", beside a2a's reporter): after each
// test it notes on the test how many `expect` assertions ran, which the reporter reads from the
// test's meta to name a passing test that asserted nothing (no_assertions).
import { afterEach, expect } from 'vitest';

afterEach((ctx) => {
  ctx.task.meta.a2aAssertions = expect.getState().assertionCalls;
});
