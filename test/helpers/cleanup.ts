// Runs before every test file (vitest setupFiles): the temporary folders a file made go when it ends. Vitest ends its
// worker processes without their 'exit' event, so temp.ts cannot rely on that alone.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(() => removeTempDirs());
