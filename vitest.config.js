import { defineConfig } from 'vitest/config';

// Two projects: "node" runs the API against the real wasm build; "browser" drives Debian's
// Chromium through playwright-core against pages served on 127.0.0.1.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['tests/node/**/*.test.js'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.js'],
          environment: 'node',
          testTimeout: 60000,
          hookTimeout: 60000,
          fileParallelism: false,
        },
      },
      {
        // The packed tarball installed into a fresh project: Node, Vite 8, plain HTML, tsc.
        test: {
          name: 'consumer',
          include: ['tests/consumer/**/*.test.js'],
          environment: 'node',
          testTimeout: 120000,
          hookTimeout: 240000,
          fileParallelism: false,
        },
      },
    ],
  },
});
