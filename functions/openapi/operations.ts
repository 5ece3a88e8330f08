import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { bikesNearbyParameters } from '../bikeshare/request.ts';
import { bikesNearbyResponse } from '../bikeshare/response.ts';
import { MAX_COORDINATES } from '../directions/request.ts';
import { directionsBody, GPX_MEDIA_TYPE } from '../directions/request.ts';
import { directionsResponse } from '../directions/response.ts';
import { eventsNearbyParameters } from '../events/request.ts';
import { eventsNearbyResponse } from '../events/response.ts';
import { explainRequest } from '../explain/request.ts';
import { explainResponse } from '../explain/response.ts';
import { multipartFile } from '../http/multipart.ts';
import { MAX_STOPS } from '../multimodal/request.ts';
import { multiModalRequest } from '../multimodal/request.ts';
import { multiModalResponse } from '../multimodal/response.ts';
import { authorizeQuery } from '../oauth/authorize.ts';
import { consentForm, consentQuery } from '../oauth/consent-handler.ts';
import { callbackQuery } from '../oauth/idp-callback-handler.ts';
import { authorizationServerMetadata, jwks, revocationResponse, tokenResponse } from '../oauth/response.ts';
import { revocationRequest } from '../oauth/revocation.ts';
import { tokenRequest } from '../oauth/token-service.ts';
import type { HttpMethod } from '../../platform/endpoints.ts';
import { beyondTheSpec } from '../http/schema-meta.ts';
import { reportSubmission } from '../reports/request.ts';
import { reportView, submittedReport } from '../reports/response.ts';
import { MAX_IMAGE_BYTES } from '../images/processing.ts';
import { riderSearchQuery } from '../riders/request.ts';
import { profileUpdated, publicProfile, riderProfile, riderSearchResponse } from '../riders/response.ts';
import { newRideBody, rideHistoryQuery, riderStatsQuery } from '../rides/request.ts';
import { rideRecord, ridePage, riderStatsResponse } from '../rides/response.ts';
import { directionsUnprocessable, errorResponses, fieldErrors, htmlPage, jsonResponse, oauthErrors, pageResponses, redirect, routeBudgetExceeded } from './responses.ts';

/**
 * What each operation of the endpoint table takes and answers, from the schemas the handlers
 * validate with and the response schemas their results are typed by. The refusals every
 * operation of an endpoint shares (405, 500, and 401, 403, 429 by who may call) are added by
 * document.ts from the endpoint's definition; here are the ones particular to an operation.
 * A unit test holds this table to the endpoint table: every endpoint, every method.
 */

export type Operation = Omit<ZodOpenApiOperationObject, 'operationId'> & { operationId: string };
export type EndpointOperations = Partial<Record<Lowercase<HttpMethod>, Operation>> & {
  /** A browser page (`page()`): HTML answers, refusals as error pages. */
  browserPage?: true;
};

/** The `openapi.json` document itself (a discovery endpoint on both APIs). */
export const openApiDocumentSchema = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document.' });

const json = (schema: z.ZodType, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
const form = (schema: z.ZodType) => ({ 'application/x-www-form-urlencoded': { schema } });

const routingRefusals = { '400': errorResponses.crossCityOrBadRequest, '422': routeBudgetExceeded, '503': errorResponses.routingUnavailable };

const reportId = z.object({ id: z.string().meta({ description: 'The UUID returned at submission.' }) });
const rideId = z.object({ id: z.string().meta({ description: 'The ride id (a whole number).' }) });

/** Directions' answer: the spec's JSON, or beyond the spec a GPX 1.1 file when the request asks for one (functions/directions/gpx-answer.ts). */
const directionsJson = jsonResponse('The routes, or `route: null` when none joins the waypoints.', directionsResponse, { rateLimited: true });
const directionsAnswer = {
  ...directionsJson,
  description:
    `${directionsJson.description} Beyond the spec: with \`format: "gpx"\`, or \`Accept: ${GPX_MEDIA_TYPE}\` ranked at least as high as JSON, the route as a GPX 1.1 file ` +
    '(docs/routing.md, "GPX"): a track with a segment per leg and heights where an elevation model covers the city, the steps as route points with their instructions, the waypoints.',
  content: {
    ...directionsJson.content,
    [GPX_MEDIA_TYPE]: { schema: z.string().meta({ description: 'A GPX 1.1 document (http://www.topografix.com/GPX/1/1/gpx.xsd).' }), ...beyondTheSpec },
  },
  headers: z.object({
    ...(directionsJson.headers as z.ZodObject).shape,
    'Content-Disposition': z
      .string()
      .optional()
      .meta({ description: 'On a GPX answer: `attachment` with the file name `spoke-route-<search_id>.gpx`.', header: { id: 'ContentDisposition', ...beyondTheSpec } }),
  }),
};

export const operations: Record<string, EndpointOperations> = {
  directions: {
    post: {
      operationId: 'directions',
      tags: ['Routing'],
      summary: 'Cycling and walking directions',
      description:
        `Spec 4.1. Costs one rate-limit token per consecutive pair of coordinates (2 to ${MAX_COORDINATES}). ` +
        'A coordinate more than 250 m from any usable road of a covered city answers 200 with `route: null`. ' +
        '`metadata.safety_breakdown` is beyond the spec.',
      requestBody: { required: true, content: json(directionsBody) },
      responses: { '200': directionsAnswer, ...routingRefusals, '422': directionsUnprocessable },
    },
  },
  'multi-modal': {
    post: {
      operationId: 'multiModal',
      tags: ['Routing'],
      summary: 'Ways to make one trip: own bike, docked, docked e-bike, dockless',
      description:
        'Spec 4.2; docs/multimodal.md. `start` and `end` (also accepted as `origin` and `destination`) are required. ' +
        `Costs one token per hop (up to ${MAX_STOPS} \`stops\`), from the caller's limits and from multi-modal's own, half of each window.`,
      requestBody: { required: true, content: json(multiModalRequest) },
      responses: { '200': jsonResponse('The options, in the spec\'s order; an empty list when none is viable.', multiModalResponse, { rateLimited: true }), ...routingRefusals },
    },
  },
  'explain-supersafe': {
    post: {
      operationId: 'explainSupersafe',
      tags: ['Routing'],
      summary: 'Why the supersafe route differs from the direct one, in one sentence',
      description: 'Spec 4.3; docs/explain.md. Takes the inputs of a cycling directions request, so the sentence describes the pair of routes the rider is shown.',
      requestBody: { required: true, content: json(explainRequest) },
      responses: { '200': jsonResponse('The sentence and what it was chosen from.', explainResponse, { rateLimited: true }), ...routingRefusals },
    },
  },
  'reports-submit': {
    post: {
      operationId: 'submitReport',
      tags: ['Reports'],
      summary: 'Report a road or infrastructure problem',
      description: 'Spec 4.4; docs/reports.md. Answers as soon as the report is stored; analysis follows within seconds. A partner key must send its own `source`.',
      requestBody: { required: true, content: json(reportSubmission) },
      responses: { '200': jsonResponse('The report is stored.', submittedReport, { rateLimited: true }), '400': errorResponses.badRequest },
    },
  },
  'reports-status': {
    get: {
      operationId: 'getReport',
      tags: ['Reports'],
      summary: "A report's status",
      description: 'Spec 4.4. Only reports the caller submitted (a partner key: any of its `source`; a rider: their own).',
      requestParams: { path: reportId },
      responses: { '200': jsonResponse('The report.', reportView, { rateLimited: true }), '404': errorResponses.notFound('Report not found: unknown, or not the caller\'s') },
    },
  },
  'oauth-authorize': {
    browserPage: true,
    get: {
      operationId: 'authorize',
      tags: ['Rider login'],
      summary: 'Start a rider login (a browser page)',
      description:
        'RFC 6749 4.1.1 with PKCE (`S256` only). Opened in the system browser or an in-app browser tab, never called from code. ' +
        'A request it can accept goes on to the consent screen; a request it cannot is answered with an error page, never a redirect. ' +
        'The one exception is OpenID Connect\'s `prompt=none` (beyond the spec): a request that passes every check is sent back to the app at once with the `login_required` error.',
      requestParams: { query: authorizeQuery },
      security: [],
      responses: {
        '302': redirect(
          'To the consent screen ({consent_url}), setting the cookie that binds the request to this browser; ' +
            "with `prompt=none`, to the app's `redirect_uri` with `error=login_required`, `error_description`, `state` and `iss` (OIDC Core 3.1.2.6), and no cookie.",
          'sometimes',
        ),
        '400': pageResponses.refused,
      },
    },
  },
  'oauth-consent': {
    browserPage: true,
    get: {
      operationId: 'consentPage',
      tags: ['Rider login'],
      summary: 'The consent screen (a browser page)',
      requestParams: { query: consentQuery },
      security: [],
      responses: {
        '200': htmlPage('The consent screen: the app\'s name, sign-in, Allow and Cancel.'),
        '400': pageResponses.refused,
        '403': pageResponses.forbidden,
        '404': pageResponses.notFound,
        '409': pageResponses.conflict,
        '410': pageResponses.expired,
      },
    },
    post: {
      operationId: 'consentAction',
      tags: ['Rider login'],
      summary: "The consent screen's forms (a browser page)",
      description: 'Sign in with the identity provider, send or verify an email code, allow, cancel. Each form carries the request\'s CSRF token.',
      requestBody: { required: true, content: form(consentForm) },
      security: [],
      responses: {
        '303': redirect("To the next page: the identity provider, the consent screen again, or the app's redirect_uri with `code` or `error=access_denied`."),
        '400': pageResponses.refused,
        '403': pageResponses.forbidden,
        '404': pageResponses.notFound,
        '409': pageResponses.conflict,
        '410': pageResponses.expired,
        '429': pageResponses.limited,
      },
    },
  },
  'oauth-consent-idp-callback': {
    browserPage: true,
    get: {
      operationId: 'consentIdentityProviderCallback',
      tags: ['Rider login'],
      summary: 'Where the identity provider returns the rider (a browser page)',
      requestParams: { query: callbackQuery },
      security: [],
      responses: {
        '302': redirect('Back to the consent screen.'),
        '400': pageResponses.refused,
        '403': pageResponses.forbidden,
        '404': pageResponses.notFound,
        '409': pageResponses.conflict,
        '410': pageResponses.expired,
      },
    },
  },
  'oauth-token': {
    post: {
      operationId: 'token',
      tags: ['Rider login'],
      summary: 'Exchange a code or a refresh token for tokens',
      description:
        'RFC 6749 4.1.3 and 6 (form-encoded). `authorization_code` with `code`, `redirect_uri` and `code_verifier`; `refresh_token` with `refresh_token`. ' +
        'A public app sends `client_id`; a confidential app authenticates with HTTP Basic instead. Never cached.',
      requestBody: { required: true, content: form(tokenRequest) },
      security: [],
      responses: {
        '200': jsonResponse('Tokens (RFC 6749 5.1).', tokenResponse, { headers: z.object({ 'Cache-Control': z.literal('no-store') }) }),
        '400': oauthErrors.badRequest,
        '401': oauthErrors.invalidClient,
      },
    },
  },
  'oauth-revoke': {
    post: {
      operationId: 'revoke',
      tags: ['Rider login'],
      summary: 'Revoke a refresh or access token, and with it the whole grant',
      description: 'RFC 7009 (form-encoded); client authentication as at the token endpoint.',
      requestBody: { required: true, content: form(revocationRequest) },
      security: [],
      responses: { '200': jsonResponse('Revoked, or the token was not valid.', revocationResponse), '400': oauthErrors.badRequest, '401': oauthErrors.invalidClient },
    },
  },
  'oauth-jwks': {
    get: {
      operationId: 'jwks',
      tags: ['Rider login'],
      summary: 'Public keys that verify access tokens and id_tokens',
      security: [],
      responses: { '200': jsonResponse('The JWKS; clients may cache it for a minute and fetch it again on an unknown `kid`.', jwks) },
    },
  },
  'oauth-metadata': {
    get: {
      operationId: 'authorizationServerMetadata',
      tags: ['Rider login'],
      summary: 'Authorization server metadata (RFC 8414)',
      security: [],
      responses: { '200': jsonResponse('The metadata document; cacheable for an hour.', authorizationServerMetadata) },
    },
  },
  'user-profile': {
    get: {
      operationId: 'getProfile',
      tags: ['Riders'],
      summary: "The signed-in rider's profile",
      responses: { '200': jsonResponse('The profile (spec 2.1).', riderProfile, { rateLimited: true }), '404': errorResponses.notFound('User not found') },
    },
    patch: {
      operationId: 'updateProfile',
      tags: ['Riders'],
      summary: "Change the rider's profile",
      description: 'Every field optional; only the fields sent change. `idp_user_id`, `email` and `date_registered` are read-only. Field rules: docs/riders.md.',
      requestBody: { required: true, content: json(z.record(z.string(), z.unknown()).meta({ description: '`name`, `image_url`, `home_address`, `home_coords`, `work_address`, `work_coords`.' })) },
      responses: { '200': jsonResponse('The fields changed.', profileUpdated, { rateLimited: true }), '400': fieldErrors, '404': errorResponses.notFound('User not found') },
    },
  },
  'user-photo': {
    post: {
      operationId: 'uploadProfilePhoto',
      tags: ['Riders'],
      summary: 'Upload a profile photo',
      description: `JPEG, PNG, GIF or WebP by its bytes, up to ${MAX_IMAGE_BYTES / 1024 / 1024} MB; re-encoded without its metadata. 100 image uploads per rider per 24 hours.`,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({ file: multipartFile('file').meta({ override: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The image.' } }) }),
          },
        },
      },
      responses: {
        '200': jsonResponse('The public profile with the new `image_url`.', publicProfile, { rateLimited: true }),
        '400': errorResponses.badRequest,
        '404': errorResponses.notFound('User not found'),
        '413': errorResponses.tooLarge,
      },
    },
  },
  'user-rides': {
    get: {
      operationId: 'listRides',
      tags: ['Rides'],
      summary: "The rider's ride history, newest first",
      requestParams: { query: rideHistoryQuery },
      responses: { '200': jsonResponse('One page of rides.', ridePage, { rateLimited: true }), '400': errorResponses.badRequest, '404': errorResponses.notFound('User not found') },
    },
    post: {
      operationId: 'recordRide',
      tags: ['Rides'],
      summary: 'Record a ride',
      description: 'The weather at its start is captured now (docs/riders.md).',
      requestBody: { required: true, content: json(newRideBody) },
      responses: { '201': jsonResponse('The ride as stored.', rideRecord, { rateLimited: true }), '400': errorResponses.badRequest, '404': errorResponses.notFound('User not found') },
    },
  },
  'user-ride': {
    get: {
      operationId: 'getRide',
      tags: ['Rides'],
      summary: 'One ride, with its event in full',
      requestParams: { path: rideId },
      responses: { '200': jsonResponse('The ride.', rideRecord, { rateLimited: true }), '404': errorResponses.notFound('Route not found, or User not found') },
    },
  },
  'user-stats': {
    get: {
      operationId: 'getRiderStats',
      tags: ['Rides'],
      summary: "The rider's statistics",
      requestParams: { query: riderStatsQuery },
      responses: { '200': jsonResponse('Totals, this week and month, the longest ride, per city, streaks.', riderStatsResponse, { rateLimited: true }), '400': errorResponses.badRequest, '404': errorResponses.notFound('User not found') },
    },
  },
  'user-search': {
    get: {
      operationId: 'searchRiders',
      tags: ['Riders'],
      summary: 'Find riders by name',
      description: 'Case- and accent-insensitive; at most 50, in name order.',
      requestParams: { query: riderSearchQuery },
      responses: { '200': jsonResponse('Matching riders.', riderSearchResponse, { rateLimited: true }), '400': errorResponses.badRequest },
    },
  },
  'bikes-nearby': {
    get: {
      operationId: 'bikesNearby',
      tags: ['Bike share'],
      summary: 'Bike-share stations and dockless bikes near a point',
      description: 'Spec 4.7. Only operational items, nearest first. `metadata.systems` and `num_ebikes_available` are beyond the spec.',
      requestParams: { query: bikesNearbyParameters },
      responses: { '200': jsonResponse('Stations and dockless bikes.', bikesNearbyResponse, { rateLimited: true }), '400': errorResponses.badRequest },
    },
  },
  'events-nearby': {
    get: {
      operationId: 'eventsNearby',
      tags: ['Events'],
      summary: 'Cycling events and leisure routes near a point',
      description: 'Spec 4.8. Upcoming and ongoing events by distance, then leisure routes, then events that ended in the last 14 days.',
      requestParams: { query: eventsNearbyParameters },
      security: [],
      responses: { '200': jsonResponse('The events.', eventsNearbyResponse), '400': errorResponses.badRequest },
    },
  },
  'openapi-base': {
    get: {
      operationId: 'openApiDocument',
      tags: ['Discovery'],
      summary: 'This document',
      security: [],
      responses: { '200': jsonResponse('The OpenAPI 3.1 document of this API; cacheable for five minutes.', openApiDocumentSchema) },
    },
  },
  'openapi-app': {
    get: {
      operationId: 'openApiDocument',
      tags: ['Discovery'],
      summary: 'This document',
      security: [],
      responses: { '200': jsonResponse('The OpenAPI 3.1 document of this API; cacheable for five minutes.', openApiDocumentSchema) },
    },
  },
};
