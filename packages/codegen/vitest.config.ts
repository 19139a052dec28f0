import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-setup.ts'],
    // Real specs are verified end to end (type-checked); give those tests room on 2 cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
