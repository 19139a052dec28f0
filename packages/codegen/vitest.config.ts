import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./test/helpers/global-setup.ts'],
    // Tests write whole workspaces (spec/ copies with their own tests) under .test-output.
    exclude: [...configDefaults.exclude, '.test-output/**'],
    // Real specs are verified end to end (type-checked); give those tests room on 2 cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
