import type { Emitter } from '../types.js';

// Filled in by the server-stubs work (issue 4): typed handlers and createRouter per API.
export const emitServer: Emitter = () => [];
