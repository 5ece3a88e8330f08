import { openApiHandler } from './handler.ts';

/** GET {app_base_url}/openapi.json. */
export const handler = openApiHandler('app');
