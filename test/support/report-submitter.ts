/**
 * A child process that runs the report submission handler once, as a Lambda container would, for
 * the tests that kill the submitting function between its DynamoDB write and what follows it
 * (test/reports/reports-pipeline.test.ts). Input, as JSON in SUBMISSION: the request body, the
 * caller's authorizer context and any headers (submission-event.ts). The environment points it
 * at the test's platform.
 */
import { handler } from '../../functions/reports/submit-handler.ts';
import { submissionContext, submissionEvent, type Submission } from './submission-event.ts';

const input = JSON.parse(process.env.SUBMISSION ?? '{}') as Submission;
const result = await handler(submissionEvent(input, 'crash-test'), submissionContext('crash-test', 10_000));
process.stdout.write(`${JSON.stringify(result)}\n`);
