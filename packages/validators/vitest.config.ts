import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The package tests pack, unpack and type-check a scratch consumer: on a busy 2-core
    // machine one tsc run alone can take longer than vitest's 5 s default.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
