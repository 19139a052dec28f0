import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each step bounds its own child processes; these are the outer limits.
    testTimeout: 180_000,
    hookTimeout: 1_500_000,
  },
});
