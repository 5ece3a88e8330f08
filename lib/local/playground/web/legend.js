import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { CYCLE_ROUTE_HALO, KIND_STYLES, LIT_GLOW, SAFETY_CLASSES } from './base-map.js';
import { fill, h } from './dom.js';
import { t } from './i18n.js';
import { icon } from './icons.js';

/**
 * What the map draws besides the base map, and the legend that explains all of it: the safety
 * classes, then an entry for every kind of mark on the map at the moment (pins, routes, markers
 * of disruptions, stations, bikes, events and reports). Each module that draws tells the legend
 * which kinds it shows (`show`); each mark on the map carries the class `mark-<kind>`, and the
 * legend the same kind in `data-mark`, so every mark can be matched with its entry.
 */

/** Lines and dots drawn on the map, shared by the modules that draw them and by the legend. */
export const MARK_STYLES = {
  'route-selected': { color: '#1b1f24', weight: 13, opacity: 0.9 },
  'route-other': { color: '#495057', weight: 6, dashArray: '10 8' },
  'route-pushed': { color: '#f8f9fa', weight: 5, dashArray: '2 9' },
  'mm-walk': { color: '#343a40', weight: 4, dashArray: '2 7' },
  'mm-ride': { color: '#0b7285', weight: 6, opacity: 0.85 },
  'mm-vehicle': { radius: 7, color: '#fff', weight: 2, fillColor: '#7048e8', fillOpacity: 1 },
  dockless: { radius: 5, color: '#fff', weight: 1.5, fillColor: '#7048e8', fillOpacity: 1 },
  'event-route': { color: '#d6336c', weight: 4, opacity: 0.8 },
};

/** The class every mark of a kind carries on the map. */
export const markClass = (kind) => `mark-${kind}`;

/** The pin markers' look (style.css `.pin-*`), with what they show. */
const PINS = {
  start: ['pin pin-start', 'A'],
  end: ['pin pin-end', 'B'],
  stop: ['pin pin-stop', '1'],
  disruption: ['pin pin-disruption', '!'],
  'mm-station': ['pin pin-station', () => icon('bicycle', null, 14)],
  station: ['pin pin-bikes', '7'],
  'station-empty': ['pin pin-bikes empty', '0'],
  event: ['pin pin-event', '★'],
  report: ['pin pin-report', '!'],
  'report-draft': ['pin pin-report draft', '?'],
};

/** The order of the entries: the trip, the routes, then what is around them. */
const KINDS = [
  'start', 'stop', 'end', 'route-selected', 'route-other', 'route-pushed', 'disruption',
  'mm-ride', 'mm-walk', 'mm-station', 'mm-vehicle', 'station', 'station-empty', 'dockless', 'event', 'event-route', 'report', 'report-draft',
];

const SVG = 'http://www.w3.org/2000/svg';

function svgSwatch(shapes) {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({ viewBox: '0 0 26 14', width: 26, height: 14, 'aria-hidden': 'true', class: 'swatch-svg' })) svg.setAttribute(name, String(value));
  for (const [tag, attributes] of shapes) {
    const shape = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) shape.setAttribute(name, String(value));
    svg.append(shape);
  }
  return svg;
}

const line = (style, scale = 0.5) => [
  'line',
  { x1: 2, y1: 7, x2: 24, y2: 7, stroke: style.color, 'stroke-width': Math.max(1.5, style.weight * scale), 'stroke-opacity': style.opacity ?? 1, 'stroke-dasharray': style.dashArray ? style.dashArray.split(' ').map((part) => Number(part) * scale).join(' ') : 'none', 'stroke-linecap': 'round' },
];
const dot = (style) => ['circle', { cx: 13, cy: 7, r: Math.min(6, style.radius), fill: style.fillColor, stroke: style.color, 'stroke-width': style.weight }];

function swatch(kind) {
  if (PINS[kind]) {
    const [className, content] = PINS[kind];
    return h('span', { class: `${className} legend-pin`, 'aria-hidden': 'true' }, typeof content === 'function' ? content() : content);
  }
  switch (kind) {
    case 'route-selected':
      // The dark casing, and the route inside it in two of its classes' colours.
      return svgSwatch([
        line(MARK_STYLES['route-selected']),
        ['line', { x1: 3, y1: 7, x2: 13, y2: 7, stroke: KIND_STYLES.quiet.colour, 'stroke-width': 3.5 }],
        ['line', { x1: 13, y1: 7, x2: 23, y2: 7, stroke: KIND_STYLES.cycleway.colour, 'stroke-width': 3.5 }],
      ]);
    case 'route-pushed':
      return svgSwatch([line(MARK_STYLES['route-selected']), line(MARK_STYLES['route-pushed'])]);
    case 'mm-vehicle':
    case 'dockless':
      return svgSwatch([dot(MARK_STYLES[kind])]);
    default:
      return svgSwatch([line(MARK_STYLES[kind])]);
  }
}

export class Legend {
  constructor(map) {
    this.control = new (L.Control.extend({ onAdd: () => h('div', { class: 'legend leaflet-control', 'aria-label': t('legend.label') }) }))({ position: 'bottomright' }).addTo(map);
    this.base = { night: false, lightingData: false };
    /** Owner (a module that draws) -> the kinds it shows now. */
    this.marks = new Map();
  }

  get element() {
    return this.control.getContainer();
  }

  /** The base map's look: day or night, and whether the city has lighting data. */
  setBaseMap(base) {
    this.base = base;
    this.render();
  }

  /** The kinds of mark `owner` shows now (none: []). */
  show(owner, kinds) {
    this.marks.set(owner, new Set(kinds));
    this.render();
  }

  render() {
    const shown = new Set([...this.marks.values()].flatMap((kinds) => [...kinds]));
    const safetySwatch = (style) => h('span', { class: 'swatch', style, 'aria-hidden': 'true' });
    const classes = [...SAFETY_CLASSES, 'push', 'foot'].map((kind) =>
      h('li', { 'data-kind': kind }, safetySwatch({ background: KIND_STYLES[kind].colour }), h('span', { class: 'legend-label' }, t(`kind.${kind}`)), SAFETY_CLASSES.includes(kind) ? h('code', {}, kind) : null),
    );
    classes.push(h('li', {}, safetySwatch({ background: CYCLE_ROUTE_HALO, height: '10px' }), h('span', {}, t('legend.cycleRoute'))));
    if (this.base.night) {
      classes.push(
        this.base.lightingData
          ? h('li', {}, safetySwatch({ background: LIT_GLOW, height: '10px' }), h('span', {}, t('legend.lit')))
          : h('li', { class: 'note' }, h('span', {}, t('legend.noLighting'))),
      );
    }
    const marks = KINDS.filter((kind) => shown.has(kind)).map((kind) => h('li', { 'data-mark': kind }, h('span', { class: 'mark-swatch' }, swatch(kind)), h('span', { class: 'legend-label' }, t(`mark.${kind}`))));
    this.element.setAttribute('aria-label', t('legend.label'));
    fill(
      this.element,
      h('h2', {}, t('legend.safety')),
      h('ul', {}, classes),
      marks.length ? h('h2', { class: 'legend-marks' }, t('legend.onMap')) : null,
      marks.length ? h('ul', { class: 'marks' }, marks) : null,
    );
  }
}
