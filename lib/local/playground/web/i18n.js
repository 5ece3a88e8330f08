import { CITY_NAMES, MESSAGES } from './messages.js';

/**
 * The page's language: the one chosen under "Language", for the page's own words (messages.js)
 * and for what it asks of the API alike. `t` gives a message; `translatePage` sets the words of
 * the page's fixed parts, marked in index.html with `data-i18n` (text), `data-i18n-label`
 * (aria-label) and `data-i18n-title` (title).
 */

export const LANGUAGES = ['en', 'es'];
const LOCALES = { en: 'en-GB', es: 'es-ES' };
let current = 'en';

export const language = () => current;

/** The locale that formats dates and numbers in the current language. */
export const locale = () => LOCALES[current];

export function setLanguage(value) {
  current = LANGUAGES.includes(value) ? value : 'en';
  document.documentElement.lang = current;
  translatePage(document);
}

/** The message `key` in the current language, filled with `values`. */
export function t(key, values = {}) {
  const message = MESSAGES[current][key];
  if (message === undefined) throw new Error(`No message ${key} in ${current}`);
  return typeof message === 'function' ? message(values) : message;
}

/** A city's name in the current language (the platform's name when the language has no other). */
export const cityName = (city) => CITY_NAMES[current][city.id] ?? city.name;

export function translatePage(root) {
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-label]')) element.setAttribute('aria-label', t(element.dataset.i18nLabel));
  for (const element of root.querySelectorAll('[data-i18n-title]')) element.setAttribute('title', t(element.dataset.i18nTitle));
}
