import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { failureNotice } from './api.js';
import { cityTime, decodePolyline, fill, h, metres } from './dom.js';
import { currentRider, signOut, startSignIn } from './rider.js';

/**
 * What is near the map's centre: bike-share stations and dockless bikes from
 * `GET {app_base_url}/bikes/nearby/` (a rider's token, spec 4.7: the page signs the rider in at
 * the identity provider first), and cycling events and leisure routes from the public
 * `GET {app_base_url}/events/nearby/`. Both follow the map as it moves.
 */

const BIKES_MAX_RADIUS = 3_000;
const EVENTS_MAX_RADIUS = 50_000;

export class Nearby {
  /** @param {{ api, map, container: HTMLElement, signIn: object, city: () => object }} options */
  constructor(options) {
    Object.assign(this, options);
    this.bikesLayer = L.layerGroup().addTo(this.map);
    this.eventsLayer = L.layerGroup().addTo(this.map);
    this.showBikes = false;
    this.showEvents = false;
    this.bikesStatus = h('div', { class: 'nearby-status', 'aria-live': 'polite' });
    this.eventsStatus = h('div', { class: 'nearby-status', 'aria-live': 'polite' });
    let timer;
    this.map.on('moveend', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.refresh(), 400);
    });
  }

  /** Metres from the map's centre to its farthest corner, capped. */
  radius(cap) {
    const centre = this.map.getCenter();
    return Math.min(cap, Math.round(centre.distanceTo(this.map.getBounds().getNorthEast())));
  }

  render(signInProblem) {
    const rider = currentRider();
    const account = rider
      ? h('p', { class: 'rider' }, `Signed in as ${rider.name} (${rider.email}). `, h('button', { type: 'button', class: 'link', onclick: () => this.signOut() }, 'Sign out'))
      : h(
          'div',
          { class: 'rider' },
          h('p', {}, "Bike availability needs a signed-in rider: the page signs in at the local identity provider as the platform's rider app does."),
          h('button', { type: 'button', id: 'sign-in', onclick: () => startSignIn(this.signIn) }, 'Sign in as a rider'),
          h('p', { class: 'meta' }, `Demo rider: ${this.signIn.demo_email} · password ${this.signIn.demo_password}`),
        );
    fill(
      this.container,
      h('h3', {}, 'Bike share'),
      signInProblem ? h('div', { class: 'notice error', role: 'alert' }, h('p', {}, signInProblem)) : null,
      account,
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', id: 'show-bikes', checked: this.showBikes && rider !== null, disabled: rider === null, onchange: (event) => this.toggleBikes(event.target.checked) }),
        ' Show stations and dockless bikes around the map centre',
      ),
      this.bikesStatus,
      h('h3', {}, 'Events and leisure routes'),
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', id: 'show-events', checked: this.showEvents, onchange: (event) => this.toggleEvents(event.target.checked) }),
        ' Show group rides and leisure routes nearby',
      ),
      this.eventsStatus,
    );
  }

  signOut() {
    signOut();
    this.toggleBikes(false);
    this.render();
  }

  toggleBikes(on) {
    this.showBikes = on;
    if (on) return this.loadBikes();
    this.bikesLayer.clearLayers();
    fill(this.bikesStatus);
  }

  toggleEvents(on) {
    this.showEvents = on;
    if (on) return this.loadEvents();
    this.eventsLayer.clearLayers();
    fill(this.eventsStatus);
  }

  refresh() {
    if (this.showBikes) this.loadBikes();
    if (this.showEvents) this.loadEvents();
  }

  async loadBikes() {
    const rider = currentRider();
    if (!rider) return this.render('Your rider session has ended; sign in again to see bikes.');
    const centre = this.map.getCenter();
    const radius = this.radius(BIKES_MAX_RADIUS);
    const query = new URLSearchParams({ latitude: centre.lat.toFixed(6), longitude: centre.lng.toFixed(6), radius: String(radius), limit: '200' });
    const result = await this.api.app(`/bikes/nearby/?${query}`, rider.token);
    if (!this.showBikes) return;
    this.bikesLayer.clearLayers();
    if (!result.ok) return fill(this.bikesStatus, failureNotice(result, { what: 'The bike-share request', rider: true }));
    const { stations, dockless_bikes: dockless, metadata } = result.body;
    for (const station of stations) {
      L.marker([station.lat, station.lon], {
        icon: L.divIcon({ className: `pin pin-bikes${station.num_bikes_available ? '' : ' empty'}`, html: String(station.num_bikes_available), iconSize: [26, 20] }),
        title: `${station.name}: ${station.num_bikes_available} bikes, ${station.num_docks_available} docks`,
        keyboard: false,
      })
        .bindPopup(() => h('div', {}, h('strong', {}, station.name), h('br'), `${station.num_bikes_available} bikes${station.num_ebikes_available ? ` (${station.num_ebikes_available} e-bikes)` : ''} · ${station.num_docks_available} free docks`, h('br'), h('span', { class: 'meta' }, station.brand)))
        .addTo(this.bikesLayer);
    }
    for (const bike of dockless) {
      L.circleMarker([bike.lat, bike.lon], { radius: 5, color: '#fff', weight: 1.5, fillColor: '#7048e8', fillOpacity: 1, bubblingMouseEvents: false })
        .bindTooltip(`${bike.brand} ${bike.vehicle_type}`)
        .addTo(this.bikesLayer);
    }
    const timeZone = this.city().time_zone;
    const ages = (metadata.systems ?? [])
      .filter((system) => system.stations_last_updated || system.dockless_last_updated)
      .map((system) => `${system.brand}: data of ${cityTime(system.stations_last_updated ?? system.dockless_last_updated, timeZone)}`);
    fill(
      this.bikesStatus,
      h(
        'p',
        { class: 'bikes-summary' },
        `${metadata.total_stations} stations and ${metadata.total_dockless} dockless bikes within ${metres(radius)}`,
        metadata.providers.length ? ` (${metadata.providers.join(', ')})` : ' (no bike-share data here)',
        stations.length < metadata.total_stations ? `; the nearest ${stations.length} shown` : '',
        '.',
      ),
      ages.length ? h('p', { class: 'meta' }, ages.join(' · ')) : null,
    );
  }

  async loadEvents() {
    const centre = this.map.getCenter();
    const query = new URLSearchParams({ latitude: centre.lat.toFixed(6), longitude: centre.lng.toFixed(6), radius: String(this.radius(EVENTS_MAX_RADIUS)) });
    const result = await this.api.app(`/events/nearby/?${query}`);
    if (!this.showEvents) return;
    this.eventsLayer.clearLayers();
    if (!result.ok) return fill(this.eventsStatus, failureNotice(result, { what: 'The events request' }));
    const timeZone = this.city().time_zone;
    const when = (event) =>
      event.is_leisure_route ? 'leisure route, any time' : event.is_happening_now ? 'happening now' : event.is_future ? cityTime(event.start_time, timeZone) : `ended ${cityTime(event.end_time, timeZone)}`;
    for (const event of result.body.events) {
      const label = `${event.emoji ?? ''} ${event.name} · ${when(event)}`;
      if (event.route?.polyline) {
        L.polyline(decodePolyline(event.route.polyline), { color: '#d6336c', weight: 4, opacity: 0.8, bubblingMouseEvents: false }).bindTooltip(label, { sticky: true }).addTo(this.eventsLayer);
      }
      L.marker([event.destination.latitude, event.destination.longitude], {
        icon: L.divIcon({ className: 'pin pin-event', html: event.emoji ?? '★', iconSize: [26, 26] }),
        title: label,
        keyboard: false,
      }).addTo(this.eventsLayer);
    }
    fill(
      this.eventsStatus,
      result.body.events.length
        ? h('ul', { class: 'events' }, result.body.events.map((event) => h('li', {}, h('strong', {}, `${event.emoji ?? ''} ${event.name}`), h('span', { class: 'meta' }, ` ${when(event)} · ${metres(event.distance)} away`))))
        : h('p', { class: 'meta' }, 'No events near the map centre.'),
    );
  }
}
