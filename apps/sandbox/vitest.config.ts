import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // These tests start processes and read whole histories over loopback; on a busy 2-core
    // machine one of them can take longer than vitest's 5 s default without anything being wrong.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
