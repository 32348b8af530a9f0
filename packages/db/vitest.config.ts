import { defineConfig } from 'vitest/config';
// @ts-expect-error plain JS helper shared by the workspace
import { dbProjects, testWorkers } from '../../vitest.projects.mjs';

export default defineConfig(async () => ({ test: { maxWorkers: testWorkers(), projects: await dbProjects() } }));
