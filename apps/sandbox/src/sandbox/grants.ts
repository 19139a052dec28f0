/** What the sandbox grants by default: every permission a data operation checks, and the API's scopes. */
import type { Permission } from '@bank-data-sharing/validators/v2.2';
import { OPERATION_PERMISSIONS } from '../auth/permissions.js';

/** Every permission that gates a data operation (section 4.3), each once. */
export const ALL_DATA_PERMISSIONS: readonly Permission[] = [...new Set(Object.values(OPERATION_PERMISSIONS).flat())];

/** Scopes of a sandbox token: enough for every operation (section 5). */
export const DEFAULT_SCOPES: readonly string[] = ['openid', 'accounts'];
