import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { Api } from './api.js';
import { Network, SafetyLayer } from './base-map.js';
import { byId, count, fill, formatLonLat, h, lonLatOf } from './dom.js';
import { cityName, locale, setLanguage, t } from './i18n.js';
import { Legend, markClass } from './legend.js';
import { MultiModal } from './multimodal.js';
import { Nearby } from './nearby.js';
import { Planner } from './planner.js';
import { Reports } from './reports.js';
import { completeSignIn } from './rider.js';

/**
 * The playground page: a city's safety map, the trip's points (start, stops, destination) set by
 * clicking or dragging on it, and the panels that show what the public API answers for them.
 * The trip and options survive a reload in this tab (and the round trip of a rider's sign-in).
 * The page speaks the language chosen under "Language" (i18n.js), as do the API's answers.
 */

const STATE = 'spoke-playground-state';
const savedState = () => JSON.parse(sessionStorage.getItem(STATE) ?? 'null');
const PIN_LABELS = { start: 'A', end: 'B' };
/** Directions take at most 25 coordinates (spec 8), multi-modal 23 stops. */
const MAX_STOPS = 23;

/** The city id an address's fragment names (`#new-york`), if the platform serves it. */
const cityIn = (config, hash) => config.cities.find((city) => city.id === decodeURIComponent(hash.slice(1)))?.id ?? null;

class Playground {
  constructor(config) {
    this.config = config;
    this.api = new Api(config, (call) => this.logCall(call));
    this.network = null;
    this.baseLayer = null;
    this.calls = [];
    // A city named in the address wins; the tab's saved trip is kept when it is in that city.
    const wanted = cityIn(config, location.hash);
    let saved = savedState();
    if (wanted && saved?.city !== wanted) saved = saved && { options: saved.options, tab: saved.tab };
    const city = wanted ?? config.cities.find((candidate) => candidate.id === saved?.city)?.id ?? config.cities[0].id;
    this.state = {
      start: null,
      end: null,
      stops: [],
      tab: 'route',
      ...saved,
      options: { profile: 'cycling', language: 'en', night: 'auto', departure: '', avoidHills: false, alternatives: false, safety: 'quietest', bicycle: 'hybrid', ...saved?.options },
      city,
    };
    this.waypointNames = [];
  }

  get city() {
    return this.config.cities.find((city) => city.id === this.state.city);
  }

  get coordinates() {
    return this.state.start && this.state.end ? [this.state.start, ...this.state.stops, this.state.end] : null;
  }

  persist() {
    sessionStorage.setItem(STATE, JSON.stringify(this.state));
  }

  async start() {
    // No fading: the tiles are transparent, so a level being faded out would show through the new one.
    this.map = L.map('map', { minZoom: 9, maxZoom: 19, zoomSnap: 0.5, fadeAnimation: false, zoomControl: false });
    this.placeZoomControl();
    // While the view moves (an animated fit or zoom), `data-moving` says so: a point on the map
    // is only where it is drawn once the view has settled (the browser tests wait for it).
    const container = this.map.getContainer();
    this.map.on('movestart zoomstart', () => (container.dataset.moving = 'true'));
    this.map.on('moveend zoomend', () => delete container.dataset.moving);
    this.map.attributionControl.setPrefix('Leaflet');
    this.attribution = t('page.attribution');
    this.map.attributionControl.addAttribution(this.attribution);
    L.control.scale({ imperial: false }).addTo(this.map);
    this.legend = new Legend(this.map);
    this.markers = L.layerGroup().addTo(this.map);
    this.hover = h('div', { class: 'hover-label', hidden: true, 'aria-hidden': 'true' });
    this.map.getContainer().append(this.hover);

    this.planner = new Planner({
      api: this.api,
      map: this.map,
      container: byId('results'),
      city: () => this.city,
      onNight: (night) => this.showNight(night),
      onWaypoints: (waypoints) => {
        this.waypointNames = waypoints.map((waypoint) => waypoint.name);
        this.renderPoints();
      },
      onMarks: (kinds) => this.legend.show('planner', kinds),
    });
    this.multimodal = new MultiModal({ api: this.api, map: this.map, container: byId('multimodal'), onMarks: (kinds) => this.legend.show('multimodal', kinds) });
    this.nearby = new Nearby({
      api: this.api,
      map: this.map,
      container: byId('panel-nearby'),
      signIn: this.config.rider_sign_in,
      city: () => this.city,
      onMarks: (kinds) => this.legend.show('nearby', kinds),
    });
    this.reports = new Reports({
      api: this.api,
      map: this.map,
      container: byId('panel-reports'),
      city: () => this.city,
      roadNameAt: (latlng) => this.roadNameAt(latlng),
      onMarks: (kinds) => this.legend.show('reports', kinds),
    });

    this.wireControls();
    this.wireMap();
    const signIn = await completeSignIn(this.config.rider_sign_in);
    this.nearby.render(signIn?.error);
    this.reports.render();
    if (signIn) this.state.tab = 'nearby';
    this.showTab(this.state.tab);
    await this.loadCity(this.state.city, { keepTrip: true });
    // Signed in to see bikes: show them.
    if (signIn?.rider) {
      this.nearby.toggleBikes(true);
      this.nearby.render();
    }
  }

  wireControls() {
    const select = byId('city');
    this.fillCities();
    select.disabled = false;
    select.addEventListener('change', () => this.loadCity(select.value));
    window.addEventListener('hashchange', () => {
      const city = cityIn(this.config, location.hash);
      if (city && city !== this.state.city) this.loadCity(city);
    });

    for (const input of document.querySelectorAll('input[name="click-mode"]')) input.addEventListener('change', () => (this.state.mode = input.value));
    this.setMode(this.state.mode ?? 'start');
    for (const input of document.querySelectorAll('input[name="profile"]')) {
      input.checked = input.value === this.state.options.profile;
      input.addEventListener('change', () => this.setOption('profile', input.value));
    }
    for (const id of ['language', 'night', 'departure', 'safety', 'bicycle']) {
      const control = byId(id);
      control.value = this.state.options[id];
      control.addEventListener('change', () => this.setOption(id, control.value));
    }
    const hills = byId('avoid-hills');
    hills.checked = this.state.options.avoidHills;
    hills.addEventListener('change', () => this.setOption('avoidHills', hills.checked));
    const alternatives = byId('alternatives');
    alternatives.checked = this.state.options.alternatives;
    alternatives.addEventListener('change', () => this.setOption('alternatives', alternatives.checked));
    byId('sample').addEventListener('click', () => {
      const [start, end] = this.city.sample_route;
      Object.assign(this.state, { start, end, stops: [] });
      this.tripChanged();
    });
    byId('swap').addEventListener('click', () => {
      Object.assign(this.state, { start: this.state.end, end: this.state.start, stops: [...this.state.stops].reverse() });
      this.tripChanged();
    });
    byId('clear').addEventListener('click', () => {
      Object.assign(this.state, { start: null, end: null, stops: [] });
      this.setMode('start');
      this.tripChanged();
    });
    byId('compare').addEventListener('click', () => this.coordinates && this.multimodal.compare(this.coordinates, this.state.options));

    const tabs = [...document.querySelectorAll('[role="tab"]')];
    for (const tab of tabs) {
      tab.addEventListener('click', () => this.showTab(tab.id.slice('tab-'.length)));
      tab.addEventListener('keydown', (event) => {
        const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
        if (!step) return;
        const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
        this.showTab(next.id.slice('tab-'.length));
        next.focus();
      });
    }

    const keyInput = byId('api-key');
    keyInput.value = this.api.key;
    byId('key-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.api.key = keyInput.value.trim();
      keyInput.value = this.api.key;
      this.planner.cache.clear();
      this.replan();
    });
    this.describeKey();
    byId('playground-key').addEventListener('click', () => {
      this.api.key = null;
      keyInput.value = this.api.key;
      this.planner.cache.clear();
      this.replan();
    });
  }

  wireMap() {
    this.map.on('click', (event) => this.clicked(event.latlng));
    let frame = 0;
    this.map.on('mousemove', (event) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => this.hoverAt(event));
    });
    this.map.on('mouseout', () => (this.hover.hidden = true));
  }

  showTab(name) {
    this.state.tab = name;
    this.persist();
    for (const tab of document.querySelectorAll('[role="tab"]')) {
      const selected = tab.id === `tab-${name}`;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      byId(tab.getAttribute('aria-controls')).hidden = !selected;
    }
  }

  setMode(mode) {
    this.state.mode = mode;
    for (const input of document.querySelectorAll('input[name="click-mode"]')) input.checked = input.value === mode;
  }

  setOption(name, value) {
    this.state.options[name] = value;
    if (name === 'night' && !this.coordinates) this.showNight(value === 'night');
    if (name === 'language') this.languageChanged();
    this.persist();
    this.multimodal.clear();
    this.replan();
  }

  /** The page in the chosen language: its fixed words, and every part drawn from data again. */
  languageChanged() {
    setLanguage(this.state.options.language);
    this.fillCities();
    this.describeKey();
    this.placeZoomControl();
    this.map.attributionControl.removeAttribution(this.attribution);
    this.attribution = t('page.attribution');
    this.map.attributionControl.addAttribution(this.attribution);
    this.renderPoints();
    this.legend.render();
    if (this.network) this.showCityFacts();
    this.nearby.render();
    this.nearby.refresh();
    this.reports.render();
  }

  /** Leaflet's zoom buttons, titled in the page's language. */
  placeZoomControl() {
    this.zoomControl?.remove();
    this.zoomControl = L.control.zoom({ zoomInTitle: t('page.zoomIn'), zoomOutTitle: t('page.zoomOut') }).addTo(this.map);
  }

  fillCities() {
    fill(byId('city'), this.config.cities.map((city) => h('option', { value: city.id, selected: city.id === this.state.city }, cityName(city))));
  }

  /** What the Settings tab says of the playground's key and its limits. */
  describeKey() {
    const plan = this.config.api_key_plan;
    fill(byId('key-hint'), plan ? t('settings.hint', { perMinute: count(plan.per_minute), perHour: count(plan.per_hour) }) : null);
  }

  clicked(latlng) {
    const point = lonLatOf(latlng);
    switch (this.state.mode ?? 'start') {
      case 'report':
        this.reports.beginAt(latlng);
        this.showTab('reports');
        return;
      case 'stop':
        if (this.state.stops.length < MAX_STOPS) this.state.stops.push(point);
        break;
      case 'end':
        this.state.end = point;
        break;
      default:
        this.state.start = point;
        if (!this.state.end) this.setMode('end');
    }
    this.tripChanged();
  }

  tripChanged() {
    this.waypointNames = [];
    this.persist();
    this.renderPoints();
    this.multimodal.clear();
    this.replan();
  }

  replan() {
    byId('compare').disabled = !this.coordinates;
    if (!this.coordinates) {
      this.planner.clear(t(this.state.start ? 'hint.destination' : 'hint.start'));
      return;
    }
    this.planner.plan(this.coordinates, this.state.options);
  }

  /** The trip's points in order, each with its role. */
  points() {
    const points = [];
    if (this.state.start) points.push({ role: 'start', label: t('point.start'), at: this.state.start, pin: PIN_LABELS.start });
    this.state.stops.forEach((at, index) => points.push({ role: 'stop', index, label: t('point.stop', { n: index + 1 }), at, pin: String(index + 1) }));
    if (this.state.end) points.push({ role: 'end', label: t('point.end'), at: this.state.end, pin: PIN_LABELS.end });
    return points;
  }

  renderPoints() {
    const points = this.points();
    const named = this.coordinates ? this.waypointNames : [];
    fill(
      byId('points'),
      points.map((point, order) =>
        h(
          'li',
          { class: `point ${point.role}` },
          h('span', { class: `pin-badge ${point.role}`, 'aria-hidden': 'true' }, point.pin),
          h('span', { class: 'point-label' }, point.label),
          h('span', { class: 'point-place' }, named[order] ? `${named[order]} · ` : '', formatLonLat(point.at)),
          h('button', { type: 'button', class: 'remove', 'aria-label': t('point.remove', { point: point.label }), onclick: () => this.remove(point) }, '×'),
        ),
      ),
      points.length ? null : h('li', { class: 'point empty' }, t('points.empty')),
    );
    this.markers.clearLayers();
    for (const point of points) {
      L.marker([point.at[1], point.at[0]], {
        draggable: true,
        autoPan: true,
        title: point.label,
        icon: L.divIcon({ className: `pin pin-${point.role} ${markClass(point.role)}`, html: point.pin, iconSize: [28, 28] }),
      })
        .on('dragend', (event) => this.moved(point, lonLatOf(event.target.getLatLng())))
        .addTo(this.markers);
    }
    this.legend.show('points', [...new Set(points.map((point) => point.role))]);
  }

  moved(point, at) {
    if (point.role === 'stop') this.state.stops[point.index] = at;
    else this.state[point.role] = at;
    this.tripChanged();
  }

  remove(point) {
    if (point.role === 'stop') this.state.stops.splice(point.index, 1);
    else this.state[point.role] = null;
    if (!this.state.start) this.setMode('start');
    this.tripChanged();
  }

  async loadCity(id, { keepTrip = false } = {}) {
    this.state.city = id;
    byId('city').value = id;
    history.replaceState(null, '', `#${id}`);
    if (!keepTrip) {
      Object.assign(this.state, { start: null, end: null, stops: [] });
      this.setMode('start');
    }
    this.persist();
    // Nothing of the last city stays: its streets are not hovered any more, nor its marks shown.
    this.network = null;
    this.hover.hidden = true;
    this.hover.textContent = '';
    this.planner.clear();
    this.multimodal.clear();
    this.renderPoints();
    const status = byId('status');
    fill(status, h('p', { class: 'loading' }, t('city.loading', { city: cityName(this.city) })));
    const response = await fetch(`/cities/${id}/base-map.json`).catch(() => null);
    if (id !== this.state.city) return;
    if (!response?.ok) {
      const problem = response ? `HTTP ${response.status}` : t('call.noAnswer');
      fill(status, h('div', { class: 'notice error', role: 'alert' }, h('p', {}, t('city.failed', { city: cityName(this.city), problem }))));
      return;
    }
    const network = new Network(await response.json());
    if (id !== this.state.city) return;
    this.network = network;
    if (this.baseLayer) this.baseLayer.remove();
    this.baseLayer = new SafetyLayer(this.network).addTo(this.map);
    // Leaflet ignores a new zoom while one is animating and ends that one where it was heading, so
    // a fit made during the last route's animated fit would leave the map on the previous city.
    await this.viewSettled();
    if (id !== this.state.city) return;
    this.map.fitBounds(this.network.openingView);
    this.showCityFacts();
    this.showNight(this.state.options.night === 'night');
    this.map.getContainer().dataset.city = id;
    this.map.getContainer().dataset.ready = 'true';
    this.replan();
  }

  /** Resolves once the view has stopped moving: at once when it is still, within a second at most. */
  viewSettled() {
    if (!this.map.getContainer().dataset.moving) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 1000);
      this.map.once('moveend', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** What the city's graph covers, how many streets its map has, whether it has lighting data and heights, and its graph. */
  showCityFacts() {
    fill(
      byId('status'),
      h('p', { class: 'city-coverage' }, t(`coverage.${this.city.id}`)),
      h('p', { class: 'city-facts' }, t('city.facts', { count: count(this.network.count), lighting: this.city.lighting_data, elevation: this.network.data.elevation_nodes > 0, version: this.network.data.graph_version })),
    );
  }

  /** The map's night look: lit streets glow, unlit ones fade (where the city has the data). */
  showNight(routedAtNight) {
    const night = this.state.options.night === 'night' || (this.state.options.night === 'auto' && routedAtNight);
    this.baseLayer?.setNight(night);
    this.map.getContainer().classList.toggle('night', night);
    this.legend.setBaseMap({ night, lightingData: this.city.lighting_data });
  }

  hoverAt(event) {
    if (!this.network) return;
    const world = this.map.project(event.latlng, 0);
    const segment = this.network.nearest(world.x, world.y, this.map.getZoom(), 8);
    this.hover.hidden = segment === null;
    if (segment === null) return;
    this.hover.textContent = this.network.describe(segment);
    this.hover.style.transform = `translate(${event.containerPoint.x + 14}px, ${event.containerPoint.y + 14}px)`;
  }

  /** The name of the rideable way nearest a place, for the report form. */
  roadNameAt(latlng) {
    if (!this.network) return '';
    const world = this.map.project(latlng, 0);
    const segment = this.network.nearest(world.x, world.y, this.map.getZoom(), 40, (candidate) => this.network.kindOf(candidate) !== 'foot');
    return segment === null ? '' : this.network.names[this.network.name[segment]];
  }

  logCall(call) {
    this.calls.unshift(call);
    this.calls.length = Math.min(this.calls.length, 15);
    fill(
      byId('calls'),
      this.calls.map((entry) => h('li', { class: entry.ok ? 'ok' : 'failed' }, h('code', {}, `${entry.method} ${entry.path}`), ` → ${entry.status || t('call.noAnswer')} · ${entry.ms} ms`)),
    );
    const limit = this.api.rateLimit;
    if (limit) {
      fill(
        byId('rate-limit'),
        t('rate.left', {
          who: t(this.api.usingPlaygroundKey ? 'rate.playgroundKey' : 'rate.yourKey'),
          remaining: count(limit.remaining),
          limit: count(limit.limit),
          time: new Date(limit.reset * 1000).toLocaleTimeString(locale()),
        }),
      );
    }
  }
}

async function boot() {
  // The language this tab chose before, from the first word on.
  setLanguage(savedState()?.options?.language ?? 'en');
  const status = byId('status');
  const response = await fetch('/config.json').catch(() => null);
  if (!response?.ok) {
    const problem = !response ? t('boot.noServer') : response.status === 503 ? t('boot.starting') : `HTTP ${response.status}`;
    fill(status, h('div', { class: 'notice error', role: 'alert' }, h('p', {}, problem), h('p', { class: 'meta' }, t('boot.retry'))));
    setTimeout(boot, 5000);
    return;
  }
  const config = await response.json();
  if (!config.cities.length) {
    fill(status, h('div', { class: 'notice error', role: 'alert' }, h('p', {}, t('boot.noGraphs'))));
    return;
  }
  const playground = new Playground(config);
  window.playground = playground;
  await playground.start();
}

boot();
