import { language, locale } from './i18n.js';

/**
 * Small helpers shared by the page's modules: building elements (text is always set as text,
 * never parsed as HTML, since street names and API messages come from outside), and formatting
 * distances, durations and times for people, in the page's language.
 */

/**
 * `h('p', { class: 'note' }, 'text', child)`: an element with attributes and children. `on*`
 * attributes given functions become listeners; `null`, `undefined` and `false` children are skipped.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'style' && typeof value === 'object') Object.assign(element.style, value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's content. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

export const byId = (id) => document.getElementById(id);

/** "850 m", "1.4 km" ("1,4 km" in Spanish), "12 km". */
export function metres(value) {
  // A no-break space: a figure and its unit stay on one line wherever the text wraps ("a 491 m").
  if (value < 1000) return `${Math.round(value)}\u00a0m`;
  const kilometres = (value / 1000).toFixed(value < 10_000 ? 1 : 0);
  return `${language() === 'es' ? kilometres.replace('.', ',') : kilometres}\u00a0km`;
}

/** A count with the language's thousands separator. */
export const count = (value) => value.toLocaleString(locale());

/** "45 s", "6 min", "1 h 05 min". */
export function duration(seconds) {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A moment as the city's clock shows it, e.g. "Tue 16 Jun, 14:05" ("mar, 16 jun, 14:05"). */
export function cityTime(iso, timeZone) {
  if (!iso) return '';
  return new Intl.DateTimeFormat(locale(), { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

/** Decodes an encoded polyline (precision 5, the events' routes) into [lat, lng] pairs. */
export function decodePolyline(text, precision = 5) {
  const factor = 10 ** precision;
  const points = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const next = () => {
    let result = 0;
    let shift = 0;
    let byte;
    do {
      byte = text.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < text.length) {
    lat += next();
    lng += next();
    points.push([lat / factor, lng / factor]);
  }
  return points;
}

/** A [lon, lat] pair rounded as the page sends coordinates (about 0.1 m). */
export const lonLatOf = (latlng) => [Math.round(latlng.lng * 1e6) / 1e6, Math.round(latlng.lat * 1e6) / 1e6];

export const formatLonLat = ([lon, lat]) => `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
