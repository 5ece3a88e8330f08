import { h, metres } from './dom.js';
import { t } from './i18n.js';

/**
 * A route's elevation profile, drawn as inline SVG under its card: distance along the route
 * against height, from `metadata.elevation_profile` (beyond the spec: `[metres along, metres
 * high or null]` at the start, every junction and the end), with the route's climb and descent.
 * The cards of one plan share a scale, so the hillier route looks hillier. A gap in the line is a
 * stretch no elevation model covers. Hand-written: a polyline and a few labels need no chart library.
 */

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 200;
const HEIGHT = 56;
const PAD = { left: 2, right: 2, top: 4, bottom: 4 };
/** Height range the chart spans at least, metres: a flat route draws flat, not magnified noise. */
const LEAST_SPAN = 20;

function svg(tag, attributes = {}) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** The scale shared by the plan's profiles: longest distance, lowest and highest height. */
export function profileScale(profiles) {
  const known = profiles.flatMap((profile) => (profile ?? []).filter(([, height]) => height !== null));
  if (!known.length) return null;
  const heights = known.map(([, height]) => height);
  let [low, high] = [Math.min(...heights), Math.max(...heights)];
  if (high - low < LEAST_SPAN) {
    const middle = (low + high) / 2;
    [low, high] = [middle - LEAST_SPAN / 2, middle + LEAST_SPAN / 2];
  }
  return { distance: Math.max(1, ...profiles.flatMap((profile) => (profile ?? []).map(([along]) => along))), low, high };
}

/** Runs of consecutive known heights, as SVG point lists. */
function runs(profile, x, y) {
  const pieces = [];
  let current = [];
  for (const [along, height] of profile) {
    if (height === null) {
      if (current.length) pieces.push(current);
      current = [];
    } else current.push([x(along), y(height)]);
  }
  if (current.length) pieces.push(current);
  return pieces;
}

/**
 * The profile of one route (`body` a directions answer) on the plan's scale, or a note where no
 * model gives its heights (Los Angeles).
 */
export function elevationProfile(body, scale) {
  const profile = body.metadata?.elevation_profile;
  const route = body.route;
  if (!profile || !scale) return h('span', { class: 'elevation none' }, t('profile.none'));
  const x = (along) => PAD.left + (along / scale.distance) * (WIDTH - PAD.left - PAD.right);
  const y = (height) => PAD.top + ((scale.high - height) / (scale.high - scale.low)) * (HEIGHT - PAD.top - PAD.bottom);
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', class: 'profile-chart', 'aria-hidden': 'true', focusable: 'false' });
  const floor = HEIGHT - PAD.bottom;
  for (const run of runs(profile, x, y)) {
    const line = run.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
    chart.append(svg('polygon', { class: 'profile-area', points: `${run[0][0].toFixed(1)},${floor} ${line} ${run[run.length - 1][0].toFixed(1)},${floor}` }));
    chart.append(svg('polyline', { class: 'profile-line', points: line }));
  }
  const heights = profile.filter(([, height]) => height !== null).map(([, height]) => height);
  const values = {
    gain: metres(route.elevation_gain),
    loss: metres(route.elevation_loss),
    low: metres(Math.min(...heights)),
    high: metres(Math.max(...heights)),
  };
  return h(
    'span',
    { class: 'elevation', role: 'img', 'aria-label': t('profile.label', values) },
    chart,
    h('span', { class: 'profile-figures' }, h('span', { class: 'climb' }, t('profile.climb', values)), h('span', { class: 'range' }, t('profile.range', values))),
  );
}
