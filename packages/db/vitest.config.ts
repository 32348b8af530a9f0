import { defineConfig } from 'vitest/config';
// @ts-expect-error plain JS helper shared by the workspace
import { dbProjects } from '../../vitest.projects.mjs';

export default defineConfig(async () => ({ test: { projects: await dbProjects() } }));
