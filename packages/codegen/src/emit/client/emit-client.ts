import type { Emitter } from '../types.js';

// Filled in by the client work (issue 5): one typed method per operation.
export const emitClient: Emitter = () => [];
