import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured logger. Log lines carry ids, routes, statuses and timings only: never
 * request bodies, headers, tokens, API keys or anything that identifies a rider.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'spoke' });
