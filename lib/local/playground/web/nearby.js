import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { failureNotice } from './api.js';
import { cityTime, decodePolyline, fill, h, metres } from './dom.js';
import { t } from './i18n.js';
import { MARK_STYLES, markClass } from './legend.js';
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
  /** @param {{ api, map, container: HTMLElement, signIn: object, city: () => object, onMarks: (kinds: string[]) => void }} options */
  constructor(options) {
    Object.assign(this, options);
    this.bikesLayer = L.layerGroup().addTo(this.map);
    this.eventsLayer = L.layerGroup().addTo(this.map);
    this.showBikes = false;
    this.showEvents = false;
    this.bikeMarks = [];
    this.eventMarks = [];
    /** The last sign-in problem, shown until the panel is drawn again for another reason. */
    this.signInProblem = null;
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

  /** Draws the panel; `signInProblem` (a sentence) is shown above the sign-in. */
  render(signInProblem = this.signInProblem) {
    this.signInProblem = signInProblem;
    const rider = currentRider();
    const account = rider
      ? h('p', { class: 'rider' }, t('rider.signedIn', { name: rider.name, email: rider.email }), h('button', { type: 'button', class: 'link', onclick: () => this.signOut() }, t('rider.signOut')))
      : h(
          'div',
          { class: 'rider' },
          h('p', {}, t('rider.why')),
          h('button', { type: 'button', id: 'sign-in', onclick: () => startSignIn(this.signIn) }, t('rider.signIn')),
          h('p', { class: 'meta' }, t('rider.demo', { email: this.signIn.demo_email, password: this.signIn.demo_password })),
        );
    fill(
      this.container,
      h('h3', {}, t('nearby.bikeShare')),
      signInProblem ? h('div', { class: 'notice error', role: 'alert' }, h('p', {}, signInProblem)) : null,
      account,
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', id: 'show-bikes', checked: this.showBikes && rider !== null, disabled: rider === null, onchange: (event) => this.toggleBikes(event.target.checked) }),
        ` ${t('nearby.showBikes')}`,
      ),
      this.bikesStatus,
      h('h3', {}, t('nearby.events')),
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', id: 'show-events', checked: this.showEvents, onchange: (event) => this.toggleEvents(event.target.checked) }),
        ` ${t('nearby.showEvents')}`,
      ),
      this.eventsStatus,
    );
  }

  /** Tells the legend what the bikes and the events draw now. */
  marksChanged() {
    this.onMarks([...this.bikeMarks, ...this.eventMarks]);
  }

  signOut() {
    signOut();
    this.toggleBikes(false);
    this.render(null);
  }

  toggleBikes(on) {
    this.showBikes = on;
    if (on) return this.loadBikes();
    this.bikesLayer.clearLayers();
    this.bikeMarks = [];
    this.marksChanged();
    fill(this.bikesStatus);
  }

  toggleEvents(on) {
    this.showEvents = on;
    if (on) return this.loadEvents();
    this.eventsLayer.clearLayers();
    this.eventMarks = [];
    this.marksChanged();
    fill(this.eventsStatus);
  }

  /** Asks again what is near the map centre (it moved, or the language changed). */
  refresh() {
    if (this.showBikes) this.loadBikes();
    if (this.showEvents) this.loadEvents();
  }

  async loadBikes() {
    const rider = currentRider();
    if (!rider) return this.render(t('nearby.sessionEnded'));
    const centre = this.map.getCenter();
    const radius = this.radius(BIKES_MAX_RADIUS);
    const query = new URLSearchParams({ latitude: centre.lat.toFixed(6), longitude: centre.lng.toFixed(6), radius: String(radius), limit: '200' });
    const result = await this.api.app(`/bikes/nearby/?${query}`, rider.token);
    if (!this.showBikes) return;
    this.bikesLayer.clearLayers();
    this.bikeMarks = [];
    this.marksChanged();
    if (!result.ok) return fill(this.bikesStatus, failureNotice(result, { what: 'what.bikes', rider: true }));
    const { stations, dockless_bikes: dockless, metadata } = result.body;
    const marks = new Set();
    for (const station of stations) {
      const kind = station.num_bikes_available ? 'station' : 'station-empty';
      marks.add(kind);
      L.marker([station.lat, station.lon], {
        icon: L.divIcon({ className: `pin pin-bikes${station.num_bikes_available ? '' : ' empty'} ${markClass(kind)}`, html: String(station.num_bikes_available), iconSize: [26, 20] }),
        title: t('station.title', { name: station.name, bikes: station.num_bikes_available, docks: station.num_docks_available }),
        keyboard: false,
      })
        .bindPopup(() =>
          h('div', {}, h('strong', {}, station.name), h('br'), t('station.popup', { bikes: station.num_bikes_available, ebikes: station.num_ebikes_available, docks: station.num_docks_available }), h('br'), h('span', { class: 'meta' }, station.brand)),
        )
        .addTo(this.bikesLayer);
    }
    for (const bike of dockless) {
      marks.add('dockless');
      L.circleMarker([bike.lat, bike.lon], { ...MARK_STYLES.dockless, bubblingMouseEvents: false, className: markClass('dockless') })
        .bindTooltip(`${bike.brand} ${bike.vehicle_type}`)
        .addTo(this.bikesLayer);
    }
    this.bikeMarks = [...marks];
    this.marksChanged();
    const timeZone = this.city().time_zone;
    const ages = (metadata.systems ?? [])
      .filter((system) => system.stations_last_updated || system.dockless_last_updated)
      .map((system) => t('bikes.age', { brand: system.brand, time: cityTime(system.stations_last_updated ?? system.dockless_last_updated, timeZone) }));
    fill(
      this.bikesStatus,
      h(
        'p',
        { class: 'bikes-summary' },
        t('bikes.summary', { stations: metadata.total_stations, dockless: metadata.total_dockless, radius: metres(radius) }),
        metadata.providers.length ? ` (${metadata.providers.join(', ')})` : t('bikes.noData'),
        stations.length < metadata.total_stations ? t('bikes.nearest', { n: stations.length }) : '',
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
    this.eventMarks = [];
    this.marksChanged();
    if (!result.ok) return fill(this.eventsStatus, failureNotice(result, { what: 'what.events' }));
    const timeZone = this.city().time_zone;
    const when = (event) =>
      event.is_leisure_route
        ? t('event.leisure')
        : event.is_happening_now
          ? t('event.now')
          : event.is_future
            ? cityTime(event.start_time, timeZone)
            : t('event.ended', { time: cityTime(event.end_time, timeZone) });
    const marks = new Set();
    for (const event of result.body.events) {
      // The event's name without its emoji: an emoji font may be missing (icons.js).
      const label = `${event.name} · ${when(event)}`;
      if (event.route?.polyline) {
        marks.add('event-route');
        L.polyline(decodePolyline(event.route.polyline), { ...MARK_STYLES['event-route'], bubblingMouseEvents: false, className: markClass('event-route') }).bindTooltip(label, { sticky: true }).addTo(this.eventsLayer);
      }
      marks.add('event');
      L.marker([event.destination.latitude, event.destination.longitude], {
        // The star, not the event's emoji: an emoji font may be missing (icons.js).
        icon: L.divIcon({ className: `pin pin-event ${markClass('event')}`, html: '★', iconSize: [26, 26] }),
        title: label,
        keyboard: false,
      }).addTo(this.eventsLayer);
    }
    this.eventMarks = [...marks];
    this.marksChanged();
    fill(
      this.eventsStatus,
      result.body.events.length
        ? h('ul', { class: 'events' }, result.body.events.map((event) => h('li', {}, h('strong', {}, event.name), h('span', { class: 'meta' }, t('event.away', { when: when(event), distance: metres(event.distance) })))))
        : h('p', { class: 'meta' }, t('events.none')),
    );
  }
}
