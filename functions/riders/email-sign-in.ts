import { randomInt } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../platform/aws.ts';
import { nowSeconds } from '../../platform/clock.ts';
import { tableName } from '../../platform/resources.ts';
import { consumeTokens } from '../ratelimit/limiter.ts';
import { randomHandle, sameSecret, sha256 } from '../../platform/secrets.ts';
import { mailSender } from './mail.ts';
import { findRiderByEmail, normaliseEmail } from './profiles.ts';
import type { RiderIdentity } from './identity-provider-client.ts';
import { conditionFailed } from '../../platform/conditional-writes.ts';

/**
 * Signing in with a one-time code sent by email. A challenge is created for every address asked
 * for, known or not, and the page says the same either way, so the form does not reveal who
 * has an account; only a rider's address gets a code. A code is six digits, valid ten minutes,
 * with five attempts, stored as a hash; codes per address are rate-limited so the form cannot
 * be used to flood someone's inbox.
 */

export const EMAIL_CODE_SECONDS = 10 * 60;
const MAX_ATTEMPTS = 5;
const RECORD_RETENTION_SECONDS = 24 * 60 * 60;
const CODES_PER_ADDRESS = { perMinute: 3, perHour: 10, perDay: 20 };
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

interface ChallengeRecord {
  challenge_id: string;
  /** Absent when the address belongs to no rider: then no code can ever match. */
  idp_user_id?: string;
  email?: string;
  name?: string;
  code_hash?: string;
  attempts_left: number;
  expires_at: number;
  delete_after: number;
}

export interface EmailChallenge {
  challengeId: string;
  /** A short reference shown on the page and in the email, so a rider can tell codes apart. */
  reference: string;
  maskedEmail: string;
}

export class EmailSignInError extends Error {
  constructor(
    readonly reason: 'invalid-email' | 'too-many-codes',
    message: string,
  ) {
    super(message);
    this.name = 'EmailSignInError';
  }
}

export const isPlausibleEmail = (email: string): boolean => email.length <= 320 && EMAIL_PATTERN.test(email.trim());

export function maskEmail(email: string): string {
  const [local, domain] = normaliseEmail(email).split('@') as [string, string];
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(local.length - 1, 6)))}@${domain}`;
}

const referenceOf = (challengeId: string): string => challengeId.slice(0, 6).toUpperCase().replace(/[-_]/g, 'X');
const codeHash = (challengeId: string, code: string): string => sha256(`${challengeId}:${code}`);

export async function startEmailSignIn(emailInput: string): Promise<EmailChallenge> {
  if (!isPlausibleEmail(emailInput)) throw new EmailSignInError('invalid-email', 'That does not look like an email address.');
  const email = normaliseEmail(emailInput);
  const allowance = await consumeTokens(`email-code:${sha256(email)}`, CODES_PER_ADDRESS, 1);
  if (!allowance.allowed) {
    throw new EmailSignInError('too-many-codes', `Too many codes were asked for this address. Try again in ${allowance.retryAfterSeconds} seconds.`);
  }
  const rider = await findRiderByEmail(email);
  const challengeId = randomHandle(16);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = nowSeconds() + EMAIL_CODE_SECONDS;
  const record: ChallengeRecord = {
    challenge_id: challengeId,
    ...(rider ? { idp_user_id: rider.idp_user_id, email: rider.email, name: rider.name, code_hash: codeHash(challengeId, code) } : {}),
    attempts_left: MAX_ATTEMPTS,
    expires_at: expiresAt,
    delete_after: expiresAt + RECORD_RETENTION_SECONDS,
  };
  await dynamo().send(new PutCommand({ TableName: tableName('emailSignInCodes'), Item: record }));
  const reference = referenceOf(challengeId);
  if (rider) await mailSender().sendSignInCode({ to: rider.email, code, reference, minutesValid: EMAIL_CODE_SECONDS / 60 });
  return { challengeId, reference, maskedEmail: maskEmail(email) };
}

/** The rider the code signs in, or null for a wrong, used-up or expired code. */
export async function verifyEmailCode(challengeId: string, code: string): Promise<RiderIdentity | null> {
  const table = tableName('emailSignInCodes');
  const { Item } = await dynamo().send(new GetCommand({ TableName: table, Key: { challenge_id: challengeId }, ConsistentRead: true }));
  const challenge = Item as ChallengeRecord | undefined;
  if (!challenge || challenge.attempts_left <= 0 || challenge.expires_at <= nowSeconds()) return null;
  // Count the attempt before judging it, conditionally, so parallel guesses cannot exceed the limit.
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table,
        Key: { challenge_id: challengeId },
        UpdateExpression: 'SET attempts_left = attempts_left - :one',
        ConditionExpression: 'attempts_left > :zero',
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (conditionFailed(error)) return null;
    throw error;
  }
  if (!challenge.code_hash || !challenge.idp_user_id || !/^\d{6}$/.test(code)) return null;
  if (!sameSecret(codeHash(challengeId, code), challenge.code_hash)) return null;
  // A code signs in once: of two correct attempts racing, only one gets the rider.
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table,
        Key: { challenge_id: challengeId },
        UpdateExpression: 'SET attempts_left = :zero, used_at = :now',
        ConditionExpression: 'attribute_not_exists(used_at)',
        ExpressionAttributeValues: { ':zero': 0, ':now': nowSeconds() },
      }),
    );
  } catch (error) {
    if (conditionFailed(error)) return null;
    throw error;
  }
  return {
    sub: challenge.idp_user_id,
    ...(challenge.email ? { email: challenge.email } : {}),
    ...(challenge.name ? { name: challenge.name } : {}),
  };
}
