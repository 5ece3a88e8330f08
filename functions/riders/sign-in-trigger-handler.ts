import type { PostAuthenticationTriggerEvent } from 'aws-lambda';
import { withInvocationLogging } from '../../platform/invocation-logging.ts';
import { logger } from '../../platform/logger.ts';
import { createRider } from './profiles.ts';

/**
 * The identity provider's post-authentication trigger (Amazon Cognito's `PostAuthentication`;
 * the local identity provider calls the same handler): a rider's account is created on their
 * first sign-in, from the identity provider's attributes, with the search index of the name.
 * Later sign-ins find the profile there and change nothing (the profile is the rider's to edit).
 * If this fails the sign-in fails, as Cognito does with a failing trigger, so no rider is ever
 * signed in without an account. Its log lines carry the invocation's ids (withInvocationLogging).
 */
async function onSignIn(event: PostAuthenticationTriggerEvent): Promise<PostAuthenticationTriggerEvent> {
  const attributes = event.request.userAttributes;
  const sub = attributes.sub;
  const email = attributes.email;
  if (!sub || !email) throw new Error('The identity provider sent no sub or email for the signed-in user');
  const created = await createRider({ idpUserId: sub, email, name: attributes.name ?? '' });
  if (created) logger.info('rider account created on first sign-in');
  return event;
}

export const handler = withInvocationLogging(onSignIn);
