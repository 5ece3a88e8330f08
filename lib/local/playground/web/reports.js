import * as L from '/vendor/leaflet/leaflet-src.esm.js';
import { failureNotice, notAvailableNotice } from './api.js';
import { cityTime, fill, formatLonLat, h } from './dom.js';
import { t } from './i18n.js';
import { markClass } from './legend.js';

/**
 * Road reports (spec 4.4): a place picked on the map, a category, a subtype and a few words go to
 * `POST /reports/`; the report's status is then followed with `GET /reports/{id}` (received, in
 * review once the automated analysis has run, then a reviewer's decision). The reports filed from
 * this browser are kept in its local storage so they can be followed after a reload.
 */

const STATUSES = new Set(['received', 'in_review', 'accepted', 'rejected', 'resolved']);
const FINAL_STATUSES = new Set(['accepted', 'rejected', 'resolved']);
/** The gateway's answer for a path no endpoint defines (README, "Using the API"). */
const UNKNOWN_ENDPOINT = 'Unknown endpoint or API version';
/**
 * Seconds between the status checks of a report filed from the page: soon after filing (the
 * analysis takes seconds here), then every two minutes until a reviewer decides (spec 4.4 advises
 * every one to two minutes); each check spends one of the key's requests.
 */
const POLL_DELAYS = [2, 3, 5, 10, 20, 40, 60, 120];

const words = (value) => value.replaceAll('_', ' ');
/** A status or an issue type in words; one the page does not know is shown as the API names it. */
const statusWords = (status) => (STATUSES.has(status) ? t(`status.${status}`) : words(status));
/** An issue type in words; one the platform's categories do not name is shown as the API names it. */
const issueWords = (categories, type) => (Object.hasOwn(categories, type) ? t(`issue.${type}`) : words(type));

export class Reports {
  /** @param {{ api, map, container: HTMLElement, city: () => object, roadNameAt: (latlng) => string, onMarks: (kinds: string[]) => void }} options */
  constructor(options) {
    Object.assign(this, options);
    /**
     * Spec 4.4's categories and the subtypes recognised under each (`other` is accepted under
     * every one), as the platform defines them (functions/reports/fields.ts, served in config.json);
     * their words are the messages `issue.<type>` and `subtype.<subtype>`.
     */
    this.categories = this.api.config.report_categories;
    this.storageKey = `spoke-playground-reports:${this.api.config.base_url}`;
    this.reports = JSON.parse(localStorage.getItem(this.storageKey) ?? '[]');
    this.layer = L.layerGroup().addTo(this.map);
    this.timers = new Map();
    /** Reports filed in this page, followed until decided; those kept from before are checked once. */
    this.followed = new Set();
    this.draft = null;
    this.notice = null;
    for (const report of this.reports) if (!FINAL_STATUSES.has(report.status)) this.check(report);
  }

  save() {
    localStorage.setItem(this.storageKey, JSON.stringify(this.reports));
  }

  /** Starts a report at a place on the map. */
  beginAt(latlng) {
    this.draft = { location: [Math.round(latlng.lng * 1e6) / 1e6, Math.round(latlng.lat * 1e6) / 1e6], roadName: this.roadNameAt(latlng) };
    this.notice = null;
    this.render();
    this.container.querySelector('#report-type')?.focus();
  }

  render() {
    this.layer.clearLayers();
    const marks = [];
    if (this.draft) {
      marks.push('report-draft');
      L.marker([this.draft.location[1], this.draft.location[0]], { icon: L.divIcon({ className: `pin pin-report draft ${markClass('report-draft')}`, html: '?', iconSize: [24, 24] }), title: t('report.new'), keyboard: false }).addTo(this.layer);
    }
    for (const report of this.reports) {
      L.marker([report.location[1], report.location[0]], {
        icon: L.divIcon({ className: `pin pin-report ${report.status} ${markClass('report')}`, html: '!', iconSize: [22, 22] }),
        title: t('report.marker', { type: issueWords(this.categories, report.issue_type), status: statusWords(report.status) }),
        keyboard: false,
      }).addTo(this.layer);
    }
    if (this.reports.length) marks.push('report');
    this.onMarks(marks);
    fill(
      this.container,
      h('p', { class: 'hint' }, t('reports.hint')),
      this.notice,
      this.draft ? this.form() : null,
      this.reports.length ? h('h3', {}, t('reports.mine')) : null,
      this.reports.length ? h('ul', { class: 'reports' }, [...this.reports].reverse().map((report) => this.item(report))) : null,
    );
  }

  form() {
    const subtypes = h('select', { id: 'report-subtype', name: 'issue_subtype' });
    const fillSubtypes = (type) =>
      fill(subtypes, h('option', { value: '' }, t('report.notSure')), [...this.categories[type], 'other'].map((subtype) => h('option', { value: subtype }, t(`subtype.${subtype}`))));
    const type = h(
      'select',
      { id: 'report-type', name: 'issue_type', onchange: (event) => fillSubtypes(event.target.value) },
      Object.keys(this.categories).map((value) => h('option', { value }, issueWords(this.categories, value))),
    );
    fillSubtypes('road_closed');
    const form = h(
      'form',
      { class: 'report-form', 'aria-label': t('report.form'), onsubmit: (event) => (event.preventDefault(), this.submit(new FormData(form))) },
      h('p', { class: 'meta' }, t('report.at', { place: formatLonLat(this.draft.location) })),
      h('label', { for: 'report-type' }, t('report.what')),
      type,
      h('label', { for: 'report-subtype' }, t('report.precisely')),
      subtypes,
      h('label', { for: 'report-road' }, t('report.road')),
      h('input', { id: 'report-road', name: 'road_name', maxlength: 200, value: this.draft.roadName }),
      h('label', { for: 'report-description' }, t('report.description')),
      h('textarea', { id: 'report-description', name: 'description', maxlength: 2000, rows: 3 }),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'submit', class: 'primary' }, t('report.send')),
        h('button', { type: 'button', onclick: () => ((this.draft = null), this.render()) }, t('report.cancel')),
      ),
    );
    return form;
  }

  async submit(form) {
    const body = { issue_type: form.get('issue_type'), location: this.draft.location };
    for (const field of ['issue_subtype', 'road_name', 'description']) {
      const value = String(form.get(field) ?? '').trim();
      if (value) body[field] = value;
    }
    const result = await this.api.base('POST', '/reports/', body);
    if (result.status === 404 && result.body?.error === UNKNOWN_ENDPOINT) this.notice = notAvailableNotice('unavailable.reports', result);
    else if (!result.ok) this.notice = failureNotice(result, { what: 'what.report', playgroundPlan: this.api.playgroundPlan });
    else {
      const report = { ...result.body, issue_type: body.issue_type, road_name: body.road_name ?? null, location: body.location, summary: null };
      report.updated_at ??= report.created_at;
      this.reports.push(report);
      this.save();
      this.draft = null;
      this.notice = h('p', { class: 'notice success', role: 'status' }, t('report.sent', { id: report.id, status: statusWords(report.status) }));
      this.followed.add(report.id);
      this.follow(report, 0);
    }
    this.render();
  }

  /** Checks a report's status after the attempt's delay, until a reviewer has decided. */
  follow(report, attempt) {
    clearTimeout(this.timers.get(report.id));
    const delay = POLL_DELAYS[Math.min(attempt, POLL_DELAYS.length - 1)];
    this.timers.set(report.id, setTimeout(() => this.check(report, attempt + 1), delay * 1000));
  }

  async check(report, attempt = 0) {
    clearTimeout(this.timers.get(report.id));
    const result = await this.api.base('GET', `/reports/${report.id}`);
    report.problem = null;
    if (result.ok) Object.assign(report, { status: result.body.status, summary: result.body.summary, updated_at: result.body.updated_at });
    else if (result.status === 404 && result.body?.error === UNKNOWN_ENDPOINT) this.notice = notAvailableNotice('unavailable.reportStatus', result);
    // The report's own 404: unknown, or not this key's (another key set under Settings).
    else if (result.status === 404) report.problem = { error: result.body?.error ?? 'HTTP 404' };
    else this.notice = failureNotice(result, { what: 'what.status', playgroundPlan: this.api.playgroundPlan });
    this.save();
    this.render();
    if (this.followed.has(report.id) && !FINAL_STATUSES.has(report.status) && result.status !== 404) this.follow(report, attempt);
  }

  item(report) {
    const timeZone = this.city().time_zone;
    return h(
      'li',
      { class: 'report', 'data-report-id': report.id, 'data-status': report.status },
      h('span', { class: `badge status ${report.status}` }, statusWords(report.status)),
      ' ',
      h('strong', {}, issueWords(this.categories, report.issue_type)),
      report.road_name ? ` · ${report.road_name}` : '',
      h('p', { class: 'summary' }, report.summary ?? (report.status === 'received' ? t('report.waiting') : '')),
      report.problem ? h('p', { class: 'meta' }, t('report.unknown', { error: report.problem.error })) : null,
      report.status === 'in_review' ? h('p', { class: 'meta' }, t('report.reviewer'), h('code', {}, `npm run admin -- reports accept ${report.id}`)) : null,
      h(
        'p',
        { class: 'meta' },
        t('report.filed', { filed: cityTime(report.created_at, timeZone), changed: cityTime(report.updated_at, timeZone) }),
        h('code', {}, report.id),
        ' ',
        h('button', { type: 'button', class: 'link', onclick: () => this.check(report) }, t('report.check')),
      ),
    );
  }
}
