import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Generated code imports the runtime by its package name; tests run it from source, so
    // that one copy of the runtime (and of ApiError) is loaded.
    alias: {
      '@bank-data-sharing/server-stubs/runtime': fileURLToPath(new URL('./src/runtime/index.ts', import.meta.url)),
    },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
