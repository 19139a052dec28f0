import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the sources: generated code imports the runtime by package name,
// which the alias points at src/ so no build is needed for the runtime itself.
export default defineConfig({
  resolve: {
    alias: {
      '@bank-data-sharing/client/runtime': fileURLToPath(new URL('./src/runtime/index.ts', import.meta.url)),
      '@bank-data-sharing/client/directory': fileURLToPath(new URL('./src/directory/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
