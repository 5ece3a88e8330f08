import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/project-root.ts';
import { ISSUE_TYPES, OTHER_SUBTYPE, RECOGNISED_SUBTYPES } from '../../functions/reports/fields.ts';
import { CITY_NAMES, MESSAGES } from '../../lib/local/playground/web/messages.js';

/**
 * The playground's words (lib/local/playground/web/messages.js): the same messages in English and
 * Spanish, and every message the page's scripts and its HTML ask for is there.
 */

const web = join(projectRoot, 'lib/local/playground/web');

describe("the playground's messages", () => {
  it('has the same keys, of the same kind, in English and Spanish', () => {
    expect(Object.keys(MESSAGES.es).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    for (const [key, message] of Object.entries(MESSAGES.en)) expect(typeof MESSAGES.es[key], key).toBe(typeof message);
    expect(Object.keys(CITY_NAMES.es).sort()).toEqual(['london', 'los-angeles', 'new-york', 'sf-bay']);
  });

  it('has every message the page asks for by name', async () => {
    const asked = new Set<string>();
    for (const file of await readdir(web)) {
      if (!/\.(js|html)$/.test(file) || file === 'messages.js') continue;
      const source = await readFile(join(web, file), 'utf8');
      // t('key'), the `what` and `sentence` keys passed on, and data-i18n* attributes.
      for (const match of source.matchAll(/(?:\bt\(|what: |notAvailableNotice\(|data-i18n(?:-label|-title)?=)["'`]([a-zA-Z]+\.[a-zA-Z.-]+)["'`]/g)) asked.add(match[1]!);
    }
    expect(asked.size).toBeGreaterThan(100);
    for (const key of asked) expect(MESSAGES.en[key], key).toBeDefined();
  });

  it('names every report category and subtype the platform recognises, in both languages', () => {
    // The page offers the platform's own categories (config.json carries fields.ts); each needs its words.
    const subtypes = new Set([OTHER_SUBTYPE, ...Object.values(RECOGNISED_SUBTYPES).flat()]);
    for (const language of ['en', 'es'] as const) {
      for (const type of ISSUE_TYPES) expect(MESSAGES[language][`issue.${type}`], `${language} issue.${type}`).toBeTypeOf('string');
      for (const subtype of subtypes) expect(MESSAGES[language][`subtype.${subtype}`], `${language} subtype.${subtype}`).toBeTypeOf('string');
    }
  });

  it('says plurals as each language does', () => {
    const say = (language: 'en' | 'es', key: string, values: Record<string, unknown>) => (MESSAGES[language][key] as (values: Record<string, unknown>) => string)(values);
    expect(say('en', 'mm.disruptions', { count: 1 })).toBe('1 disruption near the ride');
    expect(say('en', 'mm.disruptions', { count: 2 })).toBe('2 disruptions near the ride');
    expect(say('es', 'mm.disruptions', { count: 1 })).toBe('1 incidencia cerca del trayecto');
    expect(say('es', 'mm.disruptions', { count: 3 })).toBe('3 incidencias cerca del trayecto');
    expect(say('es', 'bikes.summary', { stations: 1, dockless: 0, radius: '500 m' })).toBe('1 estación y 0 bicis sin base en 500 m a la redonda');
  });
});
