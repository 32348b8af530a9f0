import { defineConfig } from 'vitest/config';

// Unit tests only: e2e/ holds the Playwright specs, run by `pnpm test:e2e`.
export default defineConfig({ test: { include: ['src/**/*.test.{ts,tsx}'] } });
