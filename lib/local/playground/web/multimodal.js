import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { failureNotice, notAvailableNotice } from './api.js';
import { duration, fill, h, metres } from './dom.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { MARK_STYLES, markClass } from './legend.js';

/**
 * Multi-modal options from `POST /multi-modal/v2/` (spec 4.2): the personal bike in its supersafe
 * and direct variants, docked bike share, docked e-bikes and dockless bikes, each with its legs,
 * stations or vehicle. Asked on request only, since each call spends the key's rate limit.
 */

/** The pictogram of each leg's mode. */
const LEG_ICONS = { walking: 'walking', cycling: 'bicycle' };

/** A GBFS vehicle type in words, as the API names it when the page has none. */
const vehicleType = (type) => (['bicycle', 'cargo_bicycle', 'scooter', 'scooter_standing', 'scooter_seated', 'moped'].includes(type) ? t(`vehicle.${type}`) : type);

const sum = (legs, field) => legs.reduce((total, leg) => total + (leg[field] ?? 0), 0);

export class MultiModal {
  /** @param {{ api, map, container: HTMLElement, onMarks: (kinds: string[]) => void }} options */
  constructor(options) {
    Object.assign(this, options);
    this.layer = L.layerGroup().addTo(this.map);
    this.options = null;
    this.selected = 0;
  }

  clear() {
    this.options = null;
    this.layer.clearLayers();
    this.onMarks([]);
    fill(this.container);
  }

  async compare(coordinates, { language, departure, avoidHills }) {
    fill(this.container, h('p', { class: 'planning', role: 'status' }, t('mm.looking')));
    const body = { origin: coordinates[0], destination: coordinates[coordinates.length - 1], language };
    if (coordinates.length > 2) body.stops = coordinates.slice(1, -1);
    if (departure) body.departure_time = departure;
    if (avoidHills) body.avoid_hills = true;
    const result = await this.api.base('POST', '/multi-modal/v2/', body);
    this.layer.clearLayers();
    this.onMarks([]);
    if (result.notBuiltYet) return fill(this.container, notAvailableNotice('unavailable.multimodal', result));
    if (!result.ok) return fill(this.container, failureNotice(result, { what: 'what.multimodal', playgroundPlan: this.api.playgroundPlan }));
    this.options = result.body.options ?? [];
    this.selected = 0;
    if (!this.options.length) return fill(this.container, h('p', { class: 'notice', role: 'status' }, t('mm.none')));
    this.render();
  }

  select(index) {
    this.selected = index;
    this.render();
  }

  render() {
    fill(this.container, h('ul', { class: 'mm-options' }, this.options.map((option, index) => h('li', {}, this.card(option, index)))));
    this.draw(this.options[this.selected]);
  }

  card(option, index) {
    const legs = option.legs ?? [];
    const station = (label, value, count) => (value ? h('span', { class: 'meta' }, `${label}: ${value.name}${count === undefined ? '' : ` (${count})`}`) : null);
    return h(
      'button',
      { type: 'button', class: `option-card${index === this.selected ? ' selected' : ''}`, 'aria-pressed': String(index === this.selected), onclick: () => this.select(index) },
      h('span', { class: 'card-title' }, option.name, option.is_electric ? h('span', { class: 'badge electric' }, t('mm.ebike')) : null, option.supersafe ? h('span', { class: 'badge' }, t('mm.supersafe')) : null),
      h('span', { class: 'figures' }, h('strong', {}, duration(option.duration ?? sum(legs, 'duration'))), ' · ', metres(option.distance ?? sum(legs, 'distance'))),
      h(
        'span',
        { class: 'legs' },
        legs.map((leg) =>
          h('span', { class: `leg ${leg.mode}` }, LEG_ICONS[leg.mode] ? icon(LEG_ICONS[leg.mode], t(`leg.${leg.mode}`)) : null, ` ${duration(leg.duration)}${leg.end_label ? ` → ${leg.end_label}` : ''}`),
        ),
      ),
      station(t('mm.pickup'), option.pickup_station, option.pickup_station?.num_bikes_available),
      station(t('mm.dropoff'), option.dropoff_station, option.dropoff_station?.num_docks_available),
      option.vehicle ? h('span', { class: 'meta' }, t('mm.vehicle', { type: vehicleType(option.vehicle.vehicle_type), distance: metres(option.vehicle.distance) })) : null,
      option.disruptions?.length ? h('span', { class: 'meta disruption-count' }, t('mm.disruptions', { count: option.disruptions.length })) : null,
    );
  }

  draw(option) {
    this.layer.clearLayers();
    const kinds = new Set();
    for (const leg of option.legs ?? []) {
      const line = (leg.geometry?.coordinates ?? []).map(([lon, lat]) => [lat, lon]);
      const kind = leg.mode === 'walking' ? 'mm-walk' : 'mm-ride';
      kinds.add(kind);
      L.polyline(line, { ...MARK_STYLES[kind], interactive: false, className: markClass(kind) }).addTo(this.layer);
    }
    for (const [station, label] of [[option.pickup_station, t('mm.pickup')], [option.dropoff_station, t('mm.dropoff')]]) {
      if (!station?.location) continue;
      kinds.add('mm-station');
      L.marker([station.location[1], station.location[0]], { icon: L.divIcon({ className: `pin pin-station ${markClass('mm-station')}`, html: icon('bicycle', null, 14), iconSize: [24, 24] }), title: `${label}: ${station.name}` }).addTo(this.layer);
    }
    if (option.vehicle?.location) {
      kinds.add('mm-vehicle');
      L.circleMarker([option.vehicle.location[1], option.vehicle.location[0]], { ...MARK_STYLES['mm-vehicle'], bubblingMouseEvents: false, className: markClass('mm-vehicle') })
        .bindTooltip(`${vehicleType(option.vehicle.vehicle_type)} ${option.vehicle.bike_id}`)
        .addTo(this.layer);
    }
    this.onMarks([...kinds]);
  }
}
