import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { failureNotice, notAvailableNotice } from './api.js';
import { KIND_STYLES, SAFETY_CLASSES } from './base-map.js';
import { cityTime, duration, fill, h, metres } from './dom.js';
import { t } from './i18n.js';
import { MARK_STYLES, markClass } from './legend.js';
import { elevationProfile, profileScale } from './profile.js';

/**
 * Directions side by side: the supersafe and the direct route (or the walking route) from
 * `POST /directions/v2/`, each with its distance, time and safety breakdown, the explanation
 * sentence from `POST /explain-supersafe/`, the disruptions, each route's elevation profile
 * (profile.js), and the selected route's turn by turn list with its banners and voice cues (spoken
 * by the browser on request). "Avoid hills" asks every call with `avoid_hills`; "Safer route" plans
 * the safer card (and the sentence) at the chosen grade of `safety` (quietest: the supersafe request);
 * "Alternatives" asks the direct route's alternatives (beyond the spec), each a card and a grey line
 * to select. "Download GPX" saves the selected route (supersafe, direct or walking) as a GPX file.
 */

/** The direct route's alternatives (beyond the spec), shown as variants of their own: `alternative-1` to `alternative-3`. */
const ALTERNATIVE = /^alternative-(\d)$/;

/** A variant's name (messages `variant.<variant>`, or `variant.alternative` with its number). */
const variantTitle = (variant) => {
  const number = ALTERNATIVE.exec(variant)?.[1];
  return number ? t('variant.alternative', { number }) : t(`variant.${variant}`);
};

/** What a variant prefers (`variant.<variant>.note`), or for an alternative how much more it costs than the direct route. */
const variantNote = (variant, body) =>
  ALTERNATIVE.test(variant) ? t('variant.alternative.note', { percent: Math.max(0, Math.round((body.costRatio - 1) * 100)) }) : t(`variant.${variant}.note`);

const ARROWS = {
  left: '↰',
  right: '↱',
  'slight left': '↖',
  'slight right': '↗',
  'sharp left': '↙',
  'sharp right': '↘',
  straight: '↑',
  uturn: '↶',
};

function arrowOf(maneuver) {
  if (maneuver.type === 'Start') return '●';
  if (maneuver.type === 'roundabout') return '⟳';
  if (maneuver.type === 'U-turn') return '↶';
  if (maneuver.type === 'Arrive') return '⚑';
  return ARROWS[maneuver.modifier] ?? '↑';
}

/** Speaks one cue with the browser's voice for the route's language, when the browser has speech. */
export function speak(text, language) {
  if (!('speechSynthesis' in window)) return;
  speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = language === 'es' ? 'es-ES' : 'en-GB';
  speechSynthesis.speak(utterance);
}

/** The explanation's sentence: the spec leaves the response field's name open (4.3); `explanation` is read first. */
function explanationOf(body) {
  if (typeof body?.explanation === 'string') return body.explanation;
  const text = Object.entries(body ?? {}).find(([name, value]) => typeof value === 'string' && !/(^|_)id$|version/.test(name));
  return text ? text[1] : null;
}

export class Planner {
  /**
   * @param {{ api, map, container: HTMLElement, city: () => object, onNight: (night: boolean) => void, onWaypoints: (waypoints) => void, onMarks: (kinds: string[]) => void }} options
   */
  constructor(options) {
    Object.assign(this, options);
    this.layer = L.layerGroup().addTo(this.map);
    this.cache = new Map();
    this.sequence = 0;
    this.results = null;
    this.selected = 'supersafe';
    this.fittedFor = null;
    this.retryTimer = null;
  }

  clear(message) {
    this.sequence++;
    clearInterval(this.retryTimer);
    this.results = null;
    this.layer.clearLayers();
    this.onMarks([]);
    this.map.getContainer().classList.remove('has-route');
    fill(this.container, message ? h('p', { class: 'hint' }, message) : null);
  }

  /** Asks the API once per distinct request body; failures are asked again next time. */
  request(path, body) {
    const key = `${path} ${JSON.stringify(body)}`;
    if (!this.cache.has(key)) {
      const pending = this.api.base('POST', path, body).then((result) => {
        if (!result.ok) this.cache.delete(key);
        return result;
      });
      this.cache.set(key, pending);
    }
    return this.cache.get(key);
  }

  async plan(coordinates, options) {
    const sequence = ++this.sequence;
    clearInterval(this.retryTimer);
    this.container.setAttribute('aria-busy', 'true');
    this.container.prepend(h('p', { class: 'planning', role: 'status' }, t('plan.planning')));
    const cycling = options.profile === 'cycling';
    const common = { coordinates, profile: options.profile, language: options.language };
    if (cycling && options.departure) common.departure_time = options.departure;
    if (cycling && options.night !== 'auto') common.nighttime = options.night === 'night';
    if (cycling && options.avoidHills) common.avoid_hills = true;
    // Beyond the spec: hybrid is the spec's rider, so it is left out and the requests stay the spec's.
    if (cycling && options.bicycle && options.bicycle !== 'hybrid') common.bicycle_type = options.bicycle;
    // The safer card is the route at the chosen grade (`safety`); quietest is the spec's supersafe request.
    this.safety = cycling ? (options.safety ?? 'quietest') : 'quietest';
    const graded = this.safety !== 'quietest' ? { safety: this.safety } : {};
    const variants = cycling ? ['supersafe', 'direct'] : ['walking'];
    // Alternatives (beyond the spec) are planned between two points: asked of the direct route.
    const alternatives = cycling && options.alternatives && coordinates.length === 2 ? { alternatives: true } : {};
    const bodyOf = (variant) =>
      !cycling ? common : variant === 'direct' ? { ...common, supersafe: false, ...alternatives } : { ...common, ...(graded.safety ? graded : { supersafe: true }) };
    const requests = Object.fromEntries(variants.map((variant) => [variant, bodyOf(variant)]));
    const [results, explanation] = await Promise.all([
      Promise.all(variants.map((variant) => this.request('/directions/v2/', requests[variant]))),
      cycling
        ? this.request('/explain-supersafe/', {
            coordinates,
            language: options.language,
            ...(common.departure_time ? { departure_time: common.departure_time } : {}),
            ...(common.nighttime !== undefined ? { nighttime: common.nighttime } : {}),
            ...(common.avoid_hills ? { avoid_hills: true } : {}),
            ...(common.bicycle_type ? { bicycle_type: common.bicycle_type } : {}),
            ...graded,
          })
        : null,
    ]);
    if (sequence !== this.sequence) return;
    this.container.removeAttribute('aria-busy');
    const failed = results.find((result) => !result.ok);
    if (failed) return this.showFailure(failed, () => this.plan(coordinates, options));
    this.results = Object.fromEntries(variants.map((variant, index) => [variant, results[index].body]));
    this.requests = requests;
    for (const [index, alternative] of (this.results.direct?.alternatives ?? []).entries()) {
      this.results[`alternative-${index + 1}`] = {
        route: alternative,
        metadata: { safety_breakdown: alternative.safety_breakdown, elevation_profile: alternative.elevation_profile },
        disruptions: alternative.disruptions,
        costRatio: alternative.cost_ratio,
      };
    }
    if (!this.results[this.selected]) this.selected = variants[0];
    this.language = options.language;
    const first = results[0].body;
    this.onWaypoints(first.waypoints ?? []);
    this.onNight(first.metadata?.nighttime === true);
    if (!first.route) {
      this.layer.clearLayers();
      this.onMarks([]);
      fill(this.container, h('div', { class: 'notice', role: 'status' }, h('p', {}, t('plan.noRoute')), h('p', { class: 'meta' }, t('plan.noRouteWhy'))));
      return;
    }
    this.render(explanation);
    const fitKey = JSON.stringify(coordinates);
    if (this.fittedFor !== fitKey) {
      this.fittedFor = fitKey;
      // Clear of the legend in the bottom right corner.
      const legend = this.map.getContainer().querySelector('.legend');
      this.map.fitBounds(L.latLngBounds(Object.values(this.results).flatMap((body) => body.route.geometry.coordinates.map(([lon, lat]) => [lat, lon]))), {
        paddingTopLeft: [40, 40],
        paddingBottomRight: [40, (legend?.offsetHeight ?? 0) + 30],
        maxZoom: 17,
      });
    }
  }

  /** A failed plan: the notice, and after a 429 a countdown and one automatic retry. */
  showFailure(result, retry) {
    this.layer.clearLayers();
    this.onMarks([]);
    const notice = failureNotice(result, { what: 'what.route', playgroundPlan: this.api.playgroundPlan });
    fill(this.container, notice);
    const wait = result.status === 429 ? result.retryAfter : null;
    if (!wait) return;
    let left = wait;
    const countdown = h('p', { class: 'meta countdown' }, t('plan.retry', { seconds: left }));
    notice.append(countdown);
    this.retryTimer = setInterval(() => {
      left -= 1;
      countdown.textContent = t('plan.retry', { seconds: left });
      if (left > 0) return;
      clearInterval(this.retryTimer);
      retry();
    }, 1000);
  }

  /** Whether the card is the route at a grade other than supersafe's (the safety select). */
  graded(variant) {
    return variant === 'supersafe' && this.safety !== 'quietest';
  }

  /** A card's title: the variant's, or the grade's name for the safer card at another grade. */
  title(variant) {
    return this.graded(variant) ? t(`safety.${this.safety}`) : variantTitle(variant);
  }

  select(variant) {
    if (!this.results?.[variant] || this.selected === variant) return;
    this.selected = variant;
    this.render(this.lastExplanation);
  }

  render(explanation) {
    this.lastExplanation = explanation;
    const variants = Object.keys(this.results);
    const scale = profileScale(variants.map((variant) => this.results[variant].metadata?.elevation_profile));
    const cards = h('div', { class: 'route-cards' }, variants.map((variant) => this.card(variant, scale)));
    // A sentence goes above the routes it explains; a missing endpoint's notice below them.
    const sentence = explanation?.ok ? this.explanation(explanation) : null;
    fill(
      this.container,
      sentence,
      cards,
      explanation && !sentence ? this.explanation(explanation) : null,
      this.disruptions(),
      h('h3', { class: 'steps-title' }, t('plan.steps', { variant: this.title(this.selected) })),
      // A GPX file is of a route a request answers; an alternative is part of the direct route's answer.
      this.requests[this.selected] ? h('div', { class: 'export' }, h('button', { type: 'button', class: 'gpx', onclick: () => this.downloadGpx(this.selected) }, t('plan.gpx'))) : null,
      this.steps(this.results[this.selected].route.steps),
    );
    this.draw();
  }

  /**
   * The selected route as a GPX file, as an app gets one: the same request with `format: "gpx"`
   * (beyond the spec), saved under the name the answer's Content-Disposition gives.
   */
  async downloadGpx(variant) {
    const result = await this.api.base('POST', '/directions/v2/', { ...this.requests[variant], format: 'gpx' });
    if (!result.ok) {
      this.container.querySelector('.export')?.replaceChildren(failureNotice(result, { what: 'what.gpx', playgroundPlan: this.api.playgroundPlan }));
      return;
    }
    const name = /filename="([^"]+)"/.exec(result.headers.get('Content-Disposition') ?? '')?.[1] ?? 'spoke-route.gpx';
    const href = URL.createObjectURL(new Blob([result.text], { type: 'application/gpx+xml' }));
    const link = h('a', { href, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    // The browser reads the file after the click returns: the address outlives it a little.
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  }

  explanation(result) {
    if (result.ok) return h('p', { class: 'explanation' }, explanationOf(result.body));
    if (result.notBuiltYet) return notAvailableNotice('unavailable.explain', result);
    return failureNotice(result, { what: 'what.explanation', playgroundPlan: this.api.playgroundPlan });
  }

  card(variant, scale) {
    const body = this.results[variant];
    const route = body.route;
    const breakdown = body.metadata?.safety_breakdown;
    const selected = variant === this.selected;
    const sameAsOther = variant === 'direct' && JSON.stringify(route.geometry) === JSON.stringify(this.results.supersafe?.route?.geometry);
    const kinds = breakdown ? [...SAFETY_CLASSES, 'pushed'] : [];
    const rows = kinds.map((kind) => {
      const value = breakdown[kind] ?? 0;
      const colour = kind === 'pushed' ? KIND_STYLES.push.colour : KIND_STYLES[kind].colour;
      return h(
        'span',
        { class: 'bar-row', 'data-class': kind },
        h('span', { class: 'bar-label' }, t(`bar.${kind}`)),
        h('span', { class: 'bar-track' }, h('span', { class: 'bar', style: { width: `${Math.min(100, (value / route.distance) * 100)}%`, background: colour } })),
        h('span', { class: 'bar-value' }, metres(value)),
      );
    });
    const spoken = kinds.map((kind) => `${t(`bar.${kind}`)} ${metres(breakdown[kind] ?? 0)}`).join(', ');
    return h(
      'button',
      { type: 'button', class: `route-card${selected ? ' selected' : ''}`, 'data-variant': variant, 'aria-pressed': String(selected), onclick: () => this.select(variant) },
      h('span', { class: 'card-title' }, this.title(variant)),
      h('span', { class: 'card-note' }, sameAsOther ? t('plan.sameRoute') : this.graded(variant) ? t('plan.gradedNote') : variantNote(variant, body)),
      h('span', { class: 'figures' }, h('strong', { class: 'distance' }, metres(route.distance)), ' · ', h('span', { class: 'duration' }, duration(route.duration))),
      body.sublabel ? h('span', { class: 'sublabel' }, body.sublabel) : null,
      body.metadata?.avoid_hills ? h('span', { class: 'sublabel hills' }, t('plan.hillsAvoided')) : null,
      rows.length ? h('span', { class: 'breakdown', role: 'img', 'aria-label': t('plan.breakdown', { parts: spoken }) }, rows) : null,
      elevationProfile(body, scale),
    );
  }

  disruptions() {
    const byId = new Map();
    for (const body of Object.values(this.results)) for (const disruption of body.disruptions ?? []) byId.set(disruption.id, disruption);
    if (!byId.size) return null;
    const timeZone = this.city().time_zone;
    return h(
      'section',
      { class: 'disruptions', 'aria-label': t('disruptions.label') },
      h('h3', {}, t('disruptions.title')),
      h(
        'ul',
        {},
        [...byId.values()].map((disruption) =>
          h(
            'li',
            { 'data-source': disruption.source },
            h('span', { class: `badge ${disruption.type}` }, disruptionType(disruption.type)),
            ' ',
            h('strong', {}, disruption.road_name || t('segment.unnamed')),
            h('span', { class: 'meta' }, [
              disruption.active_at_departure ? t('disruption.inForce') : t('disruption.from', { time: cityTime(disruption.starts_at, timeZone) }),
              disruption.ends_at ? t('disruption.until', { time: cityTime(disruption.ends_at, timeZone) }) : '',
              ` · ${t(disruption.source === 'report' ? 'disruption.report' : 'disruption.osm')}`,
              disruption.detail ? ` · ${disruption.detail}` : '',
            ]),
          ),
        ),
      ),
    );
  }

  steps(steps) {
    const language = this.language;
    return h(
      'ol',
      { class: 'steps', lang: language },
      steps.map((step, index) => {
        const banner = step.banner_instructions?.[0];
        const cues = step.voice_instructions ?? [];
        return h(
          'li',
          { class: `step${step.mode === 'walking' ? ' walking' : ''}`, 'data-index': index },
          h(
            'details',
            { ontoggle: (event) => event.target.open && this.map.panTo([step.maneuver.location[1], step.maneuver.location[0]]) },
            h(
              'summary',
              {},
              h('span', { class: 'arrow', 'aria-hidden': 'true' }, arrowOf(step.maneuver)),
              h('span', { class: 'instruction' }, step.maneuver.instruction),
              step.distance > 0 ? h('span', { class: 'step-distance' }, metres(step.distance)) : null,
              step.safety_classification ? h('span', { class: 'dot', title: t(`kind.${step.safety_classification}`), style: { background: KIND_STYLES[step.safety_classification].colour } }) : null,
            ),
            banner
              ? h(
                  'p',
                  { class: 'banner' },
                  h('span', { class: 'banner-label' }, t('step.banner')),
                  h('strong', {}, banner.primary.text),
                  banner.secondary ? ` · ${banner.secondary.text}` : '',
                  banner.sub ? h('span', { class: 'sub' }, t('step.then', { text: banner.sub.text })) : null,
                )
              : null,
            cues.length
              ? h(
                  'ul',
                  { class: 'cues' },
                  cues.map((cue) =>
                    h(
                      'li',
                      {},
                      h('span', { class: 'cue-distance' }, t('step.before', { distance: metres(cue.distance_along_geometry) })),
                      h('q', { class: 'cue' }, cue.announcement),
                      'speechSynthesis' in window
                        ? h('button', { type: 'button', class: 'speak', 'aria-label': t('step.speakCue', { cue: cue.announcement }), title: t('step.speak'), onclick: () => speak(cue.announcement, language) }, '▶')
                        : null,
                    ),
                  ),
                )
              : null,
          ),
        );
      }),
    );
  }

  /** The routes on the map: the selected one coloured by safety class, the other grey and clickable. */
  draw() {
    this.layer.clearLayers();
    // The routes stand out over a faded base map.
    this.map.getContainer().classList.add('has-route');
    const kinds = new Set(['route-selected']);
    const latLngs = (coordinates) => coordinates.map(([lon, lat]) => [lat, lon]);
    for (const [variant, body] of Object.entries(this.results)) {
      if (variant === this.selected) continue;
      kinds.add('route-other');
      const line = latLngs(body.route.geometry.coordinates);
      L.polyline(line, { color: '#fff', weight: 10, opacity: 0.9, interactive: false }).addTo(this.layer);
      // Clicking it selects it; the click is not also a click on the map (which would move a point).
      L.polyline(line, { ...MARK_STYLES['route-other'], className: `route-line route-${variant} ${markClass('route-other')}`, bubblingMouseEvents: false })
        .bindTooltip(t('plan.routeTooltip', { variant: this.title(variant), distance: metres(body.route.distance) }), { sticky: true })
        .on('click', () => this.select(variant))
        .addTo(this.layer);
    }
    const route = this.results[this.selected].route;
    L.polyline(latLngs(route.geometry.coordinates), { ...MARK_STYLES['route-selected'], interactive: false, className: `route-line route-${this.selected} selected ${markClass('route-selected')}` }).addTo(this.layer);
    for (const step of route.steps) {
      const coordinates = step.geometry.coordinates;
      for (const segment of step.segments ?? []) {
        const piece = latLngs(coordinates.slice(segment.start_index, segment.end_index + 1));
        const kind = segment.safety_classification;
        if (!kind) kinds.add('route-pushed');
        L.polyline(piece, kind ? { color: KIND_STYLES[kind].colour, weight: 8, interactive: false } : { ...MARK_STYLES['route-pushed'], interactive: false, className: markClass('route-pushed') }).addTo(this.layer);
      }
    }
    for (const body of Object.values(this.results)) {
      for (const disruption of body.disruptions ?? []) {
        kinds.add('disruption');
        L.marker([disruption.location[1], disruption.location[0]], {
          icon: L.divIcon({ className: `pin pin-disruption ${markClass('disruption')}`, html: '!', iconSize: [22, 22] }),
          title: t('disruption.marker', { type: disruptionType(disruption.type), road: disruption.road_name || t('segment.unnamed') }),
          keyboard: false,
        }).addTo(this.layer);
      }
    }
    this.onMarks([...kinds]);
  }
}

/** A disruption's type in words (the spec's five; another is shown as the API names it). */
function disruptionType(type) {
  return ['closure', 'roadworks', 'one_way', 'turn_removed', 'hazard'].includes(type) ? t(`disruption.${type}`) : type.replaceAll('_', ' ');
}
