// Differential test on our own spec/v2.2/account-information.yaml (bundled by the codegen loader).
import { differentialSuite } from '../support/differential-suite.js';
import { OWN_ACCOUNT_INFORMATION } from '../support/spec-files.js';

differentialSuite(OWN_ACCOUNT_INFORMATION);
