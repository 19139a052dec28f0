// Differential test on the official account-information file (read from beside the
// repository; skipped with a printed reason when the machine does not have it).
import { differentialSuite } from '../support/differential-suite.js';
import { OFFICIAL_ACCOUNT_INFORMATION } from '../support/spec-files.js';

differentialSuite(OFFICIAL_ACCOUNT_INFORMATION);
