import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { failureNotice, notAvailableNotice } from './api.js';
import { duration, fill, h, metres } from './dom.js';

/**
 * Multi-modal options from `POST /multi-modal/v2/` (spec 4.2): the personal bike in its supersafe
 * and direct variants, docked bike share, docked e-bikes and dockless bikes, each with its legs,
 * stations or vehicle. Asked on request only, since each call spends the key's rate limit.
 */

const LEG_ICONS = { walking: '🚶', cycling: '🚲' };

const sum = (legs, field) => legs.reduce((total, leg) => total + (leg[field] ?? 0), 0);

export class MultiModal {
  /** @param {{ api, map, container: HTMLElement }} options */
  constructor(options) {
    Object.assign(this, options);
    this.layer = L.layerGroup().addTo(this.map);
    this.options = null;
    this.selected = 0;
  }

  clear() {
    this.options = null;
    this.layer.clearLayers();
    fill(this.container);
  }

  async compare(coordinates, { language, departure }) {
    fill(this.container, h('p', { class: 'planning', role: 'status' }, 'Looking for bike-share options…'));
    const body = { origin: coordinates[0], destination: coordinates[coordinates.length - 1], language };
    if (coordinates.length > 2) body.stops = coordinates.slice(1, -1);
    if (departure) body.departure_time = departure;
    const result = await this.api.base('POST', '/multi-modal/v2/', body);
    this.layer.clearLayers();
    if (result.notBuiltYet) return fill(this.container, notAvailableNotice('Multi-modal options (POST /multi-modal/v2/) are', result));
    if (!result.ok) return fill(this.container, failureNotice(result, { what: 'The multi-modal request', demoKey: this.api.usingDemoKey }));
    this.options = result.body.options ?? [];
    this.selected = 0;
    if (!this.options.length) return fill(this.container, h('p', { class: 'notice', role: 'status' }, 'No multi-modal option between these points.'));
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
      h('span', { class: 'card-title' }, option.name, option.is_electric ? h('span', { class: 'badge electric' }, 'e-bike') : null, option.supersafe ? h('span', { class: 'badge' }, 'supersafe') : null),
      h('span', { class: 'figures' }, h('strong', {}, duration(option.duration ?? sum(legs, 'duration'))), ' · ', metres(option.distance ?? sum(legs, 'distance'))),
      h('span', { class: 'legs' }, legs.map((leg) => h('span', { class: `leg ${leg.mode}` }, `${LEG_ICONS[leg.mode] ?? ''} ${duration(leg.duration)}${leg.end_label ? ` → ${leg.end_label}` : ''}`))),
      station('Pick up', option.pickup_station, option.pickup_station?.num_bikes_available),
      station('Drop off', option.dropoff_station, option.dropoff_station?.num_docks_available),
      option.vehicle ? h('span', { class: 'meta' }, `Vehicle: ${option.vehicle.vehicle_type}, ${metres(option.vehicle.distance)} away`) : null,
      option.disruptions?.length ? h('span', { class: 'meta' }, `${option.disruptions.length} disruption(s) near the ride`) : null,
    );
  }

  draw(option) {
    this.layer.clearLayers();
    for (const leg of option.legs ?? []) {
      const line = (leg.geometry?.coordinates ?? []).map(([lon, lat]) => [lat, lon]);
      L.polyline(line, leg.mode === 'walking' ? { color: '#343a40', weight: 4, dashArray: '2 7', interactive: false } : { color: '#0b7285', weight: 6, opacity: 0.85, interactive: false }).addTo(this.layer);
    }
    for (const [station, label] of [[option.pickup_station, 'Pick up'], [option.dropoff_station, 'Drop off']]) {
      if (!station?.location) continue;
      L.marker([station.location[1], station.location[0]], { icon: L.divIcon({ className: 'pin pin-station', html: '🚲', iconSize: [24, 24] }), title: `${label}: ${station.name}` }).addTo(this.layer);
    }
    if (option.vehicle?.location) {
      L.circleMarker([option.vehicle.location[1], option.vehicle.location[0]], { radius: 7, color: '#fff', weight: 2, fillColor: '#7048e8', fillOpacity: 1, bubblingMouseEvents: false })
        .bindTooltip(`${option.vehicle.vehicle_type} ${option.vehicle.bike_id}`)
        .addTo(this.layer);
    }
  }
}
