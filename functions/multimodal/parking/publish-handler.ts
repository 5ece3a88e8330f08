import { withInvocationLogging } from '../../../platform/invocation-logging.ts';
import { inputKey, missingInputError } from '../../../platform/inputs.ts';
import { logger } from '../../../platform/logger.ts';
import { readObjectText } from '../../../platform/object-store.ts';
import { bucketName } from '../../../platform/resources.ts';
import { PARKING_FILES } from './datasets.ts';
import { publishParkingSource } from './publish.ts';

/**
 * Publishes the parking datasets from the sources the stack uploaded to the graphs bucket
 * (`inputs/`, lib/static-inputs.ts). The stack runs it after every deployment that changes the
 * uploaded inputs; a dataset whose source did not change is left as it is.
 */

/** Every parking source uploaded to the graphs bucket; a missing one fails the run (the deployment that should have uploaded it is broken). */
async function publishUploadedSources(): Promise<{ published: string[]; unchanged: string[] }> {
  const bucket = bucketName('graphs');
  const published: string[] = [];
  const unchanged: string[] = [];
  for (const entry of PARKING_FILES) {
    const text = await readObjectText(bucket, inputKey(entry.file));
    if (text === null) throw missingInputError(entry.file);
    const spots = await publishParkingSource(entry, text, bucket);
    (spots === null ? unchanged : published).push(`${entry.city}/${entry.kind}`);
    if (spots !== null) logger.info('parking dataset published', { city: entry.city, kind: entry.kind, spots });
  }
  return { published, unchanged };
}

export const handler = withInvocationLogging(publishUploadedSources);
