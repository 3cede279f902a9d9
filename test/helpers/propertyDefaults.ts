// Setup file: properties that name no run count get fast-check's default, scaled like the others
// (test/helpers/runs.ts).
import fc from 'fast-check';
import { FAST_CHECK_DEFAULT_RUNS, propertyRuns } from './runs.js';

fc.configureGlobal({ numRuns: propertyRuns(FAST_CHECK_DEFAULT_RUNS) });
