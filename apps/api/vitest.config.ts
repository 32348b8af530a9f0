import { defineConfig } from 'vitest/config';
// @ts-expect-error plain JS helper shared by the workspace
import { dbProjects, testWorkers } from '../../vitest.projects.mjs';

export default defineConfig(async () => ({
  test: {
    maxWorkers: testWorkers(),
    // The template databases, made once before any file starts (issue 46).
    globalSetup: ['../../packages/db/src/test-global-setup.ts'],
    projects: await dbProjects({ exclude: ['test/security/**'] }),
  },
}));
