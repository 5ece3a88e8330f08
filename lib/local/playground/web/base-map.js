import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { t } from './i18n.js';

/**
 * The base map: the city's routing graph drawn on canvas tiles, one line per segment coloured by
 * its safety class, signed cycle routes haloed, and at night lit streets glowing and unlit ones
 * dimmed. The data is the playground server's base map (lib/local/playground/base-map.ts); the
 * tiles are drawn here, per zoom, from coordinates projected once to Web Mercator.
 */

/**
 * Colours of the five safety classes (spec 1.1), and of ways a bike is pushed along or only
 * walked; their names are the messages `kind.<kind>` (messages.js).
 */
export const KIND_STYLES = {
  quiet: { colour: '#2f9e44' },
  cycleway: { colour: '#1971c2' },
  moderate: { colour: '#f08c00' },
  busy: { colour: '#e03131' },
  shared: { colour: '#9c36b5' },
  push: { colour: '#868e96' },
  foot: { colour: '#adb5bd' },
};
export const SAFETY_CLASSES = ['quiet', 'cycleway', 'moderate', 'busy', 'shared'];

export const CYCLE_ROUTE_HALO = 'rgba(25, 113, 194, 0.28)';
export const LIT_GLOW = 'rgba(255, 221, 110, 0.2)';
/** Drawn last, on top: the classes that matter most to a rider. */
const DRAW_ORDER = ['foot', 'push', 'shared', 'quiet', 'moderate', 'busy', 'cycleway'];
const TILE = 256;

/** Line width in CSS pixels at a zoom: thin for the city, road-like close up. */
function widthAt(zoom) {
  if (zoom <= 12) return 1;
  if (zoom >= 18) return 4.5;
  return [1.3, 1.7, 2.2, 2.9, 3.6][Math.floor(zoom) - 13];
}

/** The decoded network: Web Mercator points (0..256 at zoom 0) and each segment's extent. */
export class Network {
  constructor(data) {
    const { segments } = data;
    this.data = data;
    this.count = segments.count;
    this.kinds = data.kinds;
    this.bits = data.flag_bits;
    this.names = data.names;
    this.kind = Uint8Array.from(segments.kind);
    this.flags = Uint8Array.from(segments.flags);
    this.name = Uint32Array.from(segments.name);
    this.first = new Uint32Array(this.count + 1);
    const total = segments.points.reduce((sum, count) => sum + count, 0);
    this.x = new Float64Array(total);
    this.y = new Float64Array(total);
    this.box = new Float64Array(this.count * 4);
    let point = 0;
    let coord = 0;
    for (let segment = 0; segment < this.count; segment++) {
      this.first[segment] = point;
      let [lon, lat] = data.origin;
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (let index = 0; index < segments.points[segment]; index++, point++) {
        lon += segments.coords[coord++];
        lat += segments.coords[coord++];
        const x = ((lon / data.scale + 180) / 360) * TILE;
        const sin = Math.sin(((lat / data.scale) * Math.PI) / 180);
        const y = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * TILE;
        this.x[point] = x;
        this.y[point] = y;
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
      this.box.set([minX, minY, maxX, maxY], segment * 4);
    }
    this.first[this.count] = point;
  }

  kindOf(segment) {
    return this.kinds[this.kind[segment]];
  }

  has(segment, bit) {
    return (this.flags[segment] & this.bits[bit]) !== 0;
  }

  /** [[south, west], [north, east]] of the whole network. */
  get bounds() {
    const [west, south, east, north] = this.data.bbox;
    return [[south, west], [north, east]];
  }

  /** Where the page opens the city: its busiest part (lib/local/playground/base-map.ts, `busiestSquare`). */
  get openingView() {
    const [west, south, east, north] = this.data.opening_view ?? this.data.bbox;
    return [[south, west], [north, east]];
  }

  /**
   * The segment nearest a point in world pixels at `zoom`, if one lies within `within` pixels;
   * `accept` filters (the report form wants rideable ways).
   */
  nearest(worldX, worldY, zoom, within, accept = () => true) {
    const scale = 2 ** zoom;
    const reach = within / scale;
    let best = -1;
    let bestDistance = within;
    for (let segment = 0; segment < this.count; segment++) {
      const box = segment * 4;
      if (worldX < this.box[box] - reach || worldX > this.box[box + 2] + reach || worldY < this.box[box + 1] - reach || worldY > this.box[box + 3] + reach) continue;
      if (!accept(segment)) continue;
      for (let point = this.first[segment]; point + 1 < this.first[segment + 1]; point++) {
        const distance = distanceToLine(worldX, worldY, this.x[point], this.y[point], this.x[point + 1], this.y[point + 1]) * scale;
        if (distance < bestDistance) {
          bestDistance = distance;
          best = segment;
        }
      }
    }
    return best < 0 ? null : best;
  }

  /** What a person reads about a segment: its name and how Spoke rates it. */
  describe(segment) {
    const kind = this.kindOf(segment);
    const parts = [this.names[this.name[segment]] || t('segment.unnamed'), t(`kind.${kind}`).toLowerCase()];
    if (this.has(segment, 'cycle_route')) parts.push(t('segment.cycleRoute'));
    if (this.has(segment, 'unlit')) parts.push(t('segment.unlit'));
    else if (this.has(segment, 'lit_assumed')) parts.push(t('segment.litAssumed'));
    else if (this.has(segment, 'lit')) parts.push(t('segment.lit'));
    return parts.join(' · ');
  }
}

function distanceToLine(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  const along = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared));
  return Math.hypot(px - ax - along * dx, py - ay - along * dy);
}

/** A Leaflet grid layer whose tiles are drawn from a `Network`. */
export const SafetyLayer = L.GridLayer.extend({
  options: { maxZoom: 19, updateWhenZooming: false, keepBuffer: 3 },

  initialize(network, options) {
    L.GridLayer.prototype.initialize.call(this, options);
    this.network = network;
    this.night = false;
  },

  setNight(night) {
    if (night === this.night) return;
    this.night = night;
    this.redraw();
  },

  createTile(coords) {
    const canvas = document.createElement('canvas');
    const ratio = window.devicePixelRatio || 1;
    canvas.width = TILE * ratio;
    canvas.height = TILE * ratio;
    const context = canvas.getContext('2d');
    context.scale(ratio, ratio);
    this.drawTile(context, coords);
    return canvas;
  },

  drawTile(context, { x, y, z }) {
    const network = this.network;
    const scale = 2 ** z;
    const width = widthAt(z);
    const pad = (width * 3 + 6) / scale;
    const left = (x * TILE) / scale - pad;
    const top = (y * TILE) / scale - pad;
    const right = ((x + 1) * TILE) / scale + pad;
    const bottom = ((y + 1) * TILE) / scale + pad;
    const visible = [];
    for (let segment = 0; segment < network.count; segment++) {
      const box = segment * 4;
      if (network.box[box] > right || network.box[box + 2] < left || network.box[box + 1] > bottom || network.box[box + 3] < top) continue;
      const kind = network.kindOf(segment);
      if ((kind === 'foot' && z < 15) || (kind === 'push' && z < 14)) continue;
      visible.push(segment);
    }
    context.lineCap = 'round';
    context.lineJoin = 'round';
    const trace = (segments, lineWidth, style, dash = []) => {
      if (!segments.length) return;
      context.beginPath();
      for (const segment of segments) {
        const first = network.first[segment];
        const end = network.first[segment + 1];
        context.moveTo(network.x[first] * scale - x * TILE, network.y[first] * scale - y * TILE);
        for (let point = first + 1; point < end; point++) context.lineTo(network.x[point] * scale - x * TILE, network.y[point] * scale - y * TILE);
      }
      context.setLineDash(dash);
      context.lineWidth = lineWidth;
      context.strokeStyle = style;
      context.stroke();
    };
    const rideable = visible.filter((segment) => network.kindOf(segment) !== 'foot');
    trace(rideable.filter((segment) => network.has(segment, 'cycle_route')), width * 3 + 2, CYCLE_ROUTE_HALO);
    if (this.night) trace(rideable.filter((segment) => network.has(segment, 'lit')), width * 2 + 5, LIT_GLOW);
    for (const kind of DRAW_ORDER) {
      const ofKind = visible.filter((segment) => network.kindOf(segment) === kind);
      const lineWidth = kind === 'foot' ? width * 0.5 : kind === 'push' ? width * 0.7 : width;
      const dash = kind === 'push' ? [width * 1.5, width * 1.5] : [];
      const major = ofKind.filter((segment) => network.has(segment, 'major_road'));
      const minor = ofKind.filter((segment) => !network.has(segment, 'major_road'));
      if (!this.night) {
        trace(minor, lineWidth, KIND_STYLES[kind].colour, dash);
        trace(major, lineWidth * 1.6, KIND_STYLES[kind].colour, dash);
        continue;
      }
      // At night an unlit street fades: what a rider cannot see, the map does not show brightly.
      for (const [segments, factor] of [[minor, 1], [major, 1.6]]) {
        const unlit = segments.filter((segment) => network.has(segment, 'unlit'));
        trace(segments.filter((segment) => !network.has(segment, 'unlit')), lineWidth * factor, KIND_STYLES[kind].colour, dash);
        context.globalAlpha = 0.3;
        trace(unlit, lineWidth * factor, KIND_STYLES[kind].colour, dash);
        context.globalAlpha = 1;
      }
    }
  },
});
