import { openApiHandler } from './handler.ts';

/** GET {base_url}/openapi.json. */
export const handler = openApiHandler('base');
