import { count, h } from './dom.js';
import { t } from './i18n.js';

/**
 * The public API as an app calls it: `fetch` from the browser to `{base_url}` with the API key in
 * the `apikey` header, or to `{app_base_url}` with a rider's bearer token, and nothing else. Every
 * answer, good or bad, is returned as an `ApiResult`; `failureNotice` turns a bad one into what a
 * person wants to read: what went wrong, what to do, and the request id for the platform's log.
 */

const KEY_STORAGE = 'spoke-playground-api-key';

export class Api {
  /**
   * @param {object} config the playground's settings (base_url, app_base_url, api_key)
   * @param {(call: object) => void} onCall told about every call, for the settings tab's log
   */
  constructor(config, onCall) {
    this.config = config;
    this.onCall = onCall;
    /** The tightest window's figures from the last keyed answer. */
    this.rateLimit = null;
  }

  /** The key in use: one the person set under Settings, else the playground's own key. */
  get key() {
    return localStorage.getItem(KEY_STORAGE) || this.config.api_key;
  }

  set key(value) {
    if (value && value !== this.config.api_key) localStorage.setItem(KEY_STORAGE, value);
    else localStorage.removeItem(KEY_STORAGE);
  }

  get usingPlaygroundKey() {
    return this.key === this.config.api_key;
  }

  /** The playground key's plan and limits while it is the key in use (to say after a 429), else null. */
  get playgroundPlan() {
    return this.usingPlaygroundKey ? (this.config.api_key_plan ?? null) : null;
  }

  /** POST or GET on `{base_url}` with the API key. */
  base(method, path, body) {
    return this.call(method, `${this.config.base_url}${path}`, { apikey: this.key }, body);
  }

  /** GET on `{app_base_url}`, with a rider's token when given (public endpoints need none). */
  app(path, token) {
    return this.call('GET', `${this.config.app_base_url}${path}`, token ? { Authorization: `Bearer ${token}` } : {});
  }

  async call(method, url, headers, body) {
    const started = performance.now();
    const path = new URL(url).pathname;
    const init = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let result;
    try {
      const response = await fetch(url, init);
      const text = await response.text();
      let json = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      result = new ApiResult({ method, url, path, status: response.status, headers: response.headers, body: json, text });
      if (response.headers.get('X-RateLimit-Limit')) {
        this.rateLimit = {
          limit: Number(response.headers.get('X-RateLimit-Limit')),
          remaining: Number(response.headers.get('X-RateLimit-Remaining')),
          reset: Number(response.headers.get('X-RateLimit-Reset')),
        };
      }
    } catch (error) {
      result = new ApiResult({ method, url, path, status: 0, headers: new Headers(), body: null, text: '', networkError: error });
    }
    result.ms = Math.round(performance.now() - started);
    this.onCall?.(result);
    return result;
  }
}

export class ApiResult {
  constructor(fields) {
    Object.assign(this, fields);
  }

  get ok() {
    return this.status >= 200 && this.status < 300;
  }

  get requestId() {
    return this.headers.get('X-Request-Id') ?? this.headers.get('x-amzn-RequestId') ?? null;
  }

  /** Seconds until a refused request may be retried (429), from the header or the body. */
  get retryAfter() {
    const header = Number(this.headers.get('Retry-After'));
    if (Number.isFinite(header) && header > 0) return header;
    return this.body?.retry_after_seconds ?? this.body?.retry_after ?? null;
  }

  /**
   * The endpoint is not part of this platform yet: the gateway's 404 for an unknown path, or the
   * 503 a placeholder answers while the capability is being built.
   */
  get notBuiltYet() {
    return this.status === 404 || this.status === 503;
  }
}

/**
 * One sentence for a failed call, in words a rider or a developer can act on. `what` names the
 * call (a `what.*` message); `playgroundPlan` is the playground key's plan, said after a 429 on it.
 */
export function failureMessage(result, { what = 'what.request', rider = false, playgroundPlan = null } = {}) {
  const subject = t(what);
  const error = result.body?.error ?? (result.text ? result.text.slice(0, 200) : '');
  switch (true) {
    case result.status === 0:
      return t('fail.network', { what: subject, origin: new URL(result.url).origin });
    case result.body?.code === 'CROSS_CITY_ROUTE':
      return t('fail.crossCity');
    case result.status === 400:
      return t('fail.refused', { what: subject, error });
    case result.status === 401 && rider:
      return t('fail.riderSession', { error });
    case result.status === 401:
      return t('fail.key', { error });
    case result.status === 403:
      return t('fail.forbidden', { error });
    case result.status === 404:
      return t('fail.notFound', { error });
    case result.status === 429: {
      const plan = playgroundPlan ? t('fail.playgroundPlan', { perMinute: count(playgroundPlan.per_minute), perHour: count(playgroundPlan.per_hour) }) : '';
      return `${t('fail.rateLimited', { wait: result.retryAfter })}${plan}`;
    }
    case result.body?.code === 'ROUTING_UNAVAILABLE':
      return t('fail.routingUnavailable', { details: result.body.details });
    case result.status === 504:
      return t('fail.timeout', { what: subject });
    default:
      return t('fail.other', { what: subject, status: result.status, error });
  }
}

/** A notice element for a failed call: the sentence, the problems listed in `details`, and the ids to find it in the log. */
export function failureNotice(result, options = {}) {
  const details = Array.isArray(result.body?.details) ? result.body.details : [];
  const ids = [
    result.status ? `HTTP ${result.status}` : t('call.noAnswer'),
    `${result.method} ${result.path}`,
    result.requestId ? t('fail.request', { id: result.requestId }) : null,
    result.body?.search_id ? t('fail.search', { id: result.body.search_id }) : null,
  ].filter(Boolean);
  return h(
    'div',
    { class: 'notice error', role: 'alert' },
    h('p', {}, failureMessage(result, options)),
    details.length > 1 ? h('ul', {}, details.map((detail) => h('li', {}, typeof detail === 'string' ? detail : JSON.stringify(detail)))) : null,
    h('p', { class: 'meta' }, ids.join(' · ')),
  );
}

/**
 * The notice for a capability this platform does not offer yet, said plainly with what the
 * endpoint answered; nothing is invented in its place. `sentence` is its `unavailable.*` message.
 */
export function notAvailableNotice(sentence, result) {
  const server = result.body?.details ?? result.body?.error;
  return h(
    'div',
    { class: 'notice unavailable', role: 'status' },
    h('p', {}, t(sentence)),
    h('p', { class: 'meta' }, t('unavailable.answers', { method: result.method, path: result.path, status: result.status, server })),
  );
}
