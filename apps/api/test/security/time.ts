/**
 * The suite's limits catch a hang, not a slow machine (decision 1200). `TEST_TIME_SCALE` (set by
 * `scripts/test-all.mjs` when other processes already keep the cores busy as the suite starts)
 * stretches them alike: beside `stress-ng --cpu 2` and the browser suite a harness took more than
 * its 180 s to start on PGlite and the fuzzing more than its 300 s, both still moving (issue 46).
 */
export const limit = (ms: number) => ms * Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);
