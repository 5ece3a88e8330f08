import { init } from '/vendor/redoc/redoc.standalone.js';

/**
 * The API reference: Redoc (Redocly CLI's standalone build, served from node_modules) renders the
 * platform's own `/openapi.json` of the API chosen with `?api=base` or `?api=app`. Telemetry is
 * off, and the page's content security policy lets it reach nothing but the platform.
 */

const status = document.getElementById('reference-status');
const api = new URLSearchParams(location.search).get('api') === 'app' ? 'app' : 'base';

for (const link of document.querySelectorAll('[data-api]')) {
  if (link.dataset.api === api) link.setAttribute('aria-current', 'page');
}

const response = await fetch('/config.json');
if (!response.ok) {
  status.textContent = (await response.json()).error ?? 'The platform is not ready; reload in a moment.';
} else {
  const config = await response.json();
  const documentUrl = `${api === 'app' ? config.app_base_url : config.base_url}/openapi.json`;
  document.getElementById('document-link').href = documentUrl;
  init(documentUrl, { disableTelemetry: true, hideDownloadButtons: false, expandResponses: '200,201' }, document.getElementById('redoc'));
}
