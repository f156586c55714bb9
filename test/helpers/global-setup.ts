// Builds the front-end once before the suite (the same function `npm run build` runs), so the portal pages and the SDK exist.
import { buildWeb } from '../../src/modules/portal/build.js';

export default async function setup(): Promise<void> {
  await buildWeb();
}
