import textInstructions from 'osrm-text-instructions';
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import type { Language } from '../../language.ts';
import { escapeXml } from '../../xml.ts';
import type { Profile } from '../../graph/profiles.ts';
import type { Maneuver, Modifier, WayKind } from './maneuvers.ts';

/**
 * The narrative ("odin", second half): text for maneuvers in the rider's language. Maneuver
 * sentences come from osrm-text-instructions, whose languages are data; the platform's own
 * sentences (arrival, distances, linking phrases) are in locales/*.json, which also replace the
 * library's sentences where they read wrong (its Spanish has wrong directions and broken
 * templates for some turns). Street names are never translated: they pass through as they are on
 * the signs. A way with no name is described by its kind instead ("the footpath"), in the
 * locale's words, wherever a name would go.
 */

interface Locale {
  /** The final step's instruction, fixed by the spec. */
  arrive: string;
  /** The arrival as spoken ahead of it: "In 50 metres, you will arrive at your destination". */
  arrive_spoken: string;
  distance: { metres: string; kilometres: string; one_kilometre: string };
  decimal_separator: string;
  phrase: { one_in_distance: string; two_linked: string; two_linked_by_distance: string };
  ssml_lang: string;
  /** An unnamed way as a sentence names it, by its kind: "the footpath", "el camino peatonal". */
  ways: Record<WayKind, string>;
  /** Getting off to push the bike, by how the push starts (`_name` variants name the way); and getting back on. */
  walk_bike: Record<'start' | 'start_name' | 'straight' | 'straight_name' | 'turn' | 'turn_name', string> & { remount: string };
  /** Turn directions as a sentence of the locale's own says them ("Turn {modifier} and ..."). */
  modifiers: Record<Modifier, string>;
  /** Sentences replacing the library's, by its maneuver type, then modifier (or `default` for any). */
  instructions?: Record<string, Record<string, Sentences>>;
}

/**
 * One maneuver's sentences: without a way, onto a named way, and onto a way described by its
 * kind where the language needs other words for it (`name` otherwise). Any left out are the
 * library's.
 */
interface Sentences {
  default?: string;
  name?: string;
  way?: string;
}

const locales: Record<Language, Locale> = { en, es };
const compiler = textInstructions('v5');

const fill = (template: string, values: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

const lowerFirst = (language: Language, text: string): string => text.charAt(0).toLocaleLowerCase(language) + text.slice(1);

/** osrm-text-instructions' maneuver type: a turn that keeps the road's name reads "to stay on" (its `continue`). */
function otiType(maneuver: Maneuver): string {
  switch (maneuver.type) {
    case 'Start':
      return 'depart';
    case 'Turn':
    case 'U-turn':
      return maneuver.staysOn ? 'continue' : 'turn';
    case 'Continue':
      return 'new name';
    case 'roundabout':
      return 'roundabout';
    case 'Arrive':
      return 'arrive';
  }
}

/** Where the route starts pushing the bike: `Walk your bike along the footpath`, `Turn left and walk your bike along Bank Street`. */
function dismountText(language: Language, maneuver: Maneuver): string {
  const locale = locales[language];
  const way = maneuver.wayKind ? locale.ways[maneuver.wayKind] : maneuver.name;
  const turns = maneuver.modifier !== undefined && maneuver.modifier !== 'straight';
  const form = maneuver.type === 'Start' ? 'start' : turns ? 'turn' : 'straight';
  const template = locale.walk_bike[way ? (`${form}_name` as const) : form];
  return fill(template, {
    way_name: way,
    direction: compiler.directionFromDegree(language, maneuver.bearingAfter),
    modifier: locale.modifiers[maneuver.modifier ?? 'straight'],
  });
}

/** The sentence for one maneuver, e.g. `Turn left onto Euston Road`, or `Turn left onto the footpath` where the way has no name. */
export function maneuverText(language: Language, maneuver: Maneuver): string {
  const locale = locales[language];
  if (maneuver.type === 'Arrive') return locale.arrive;
  if (maneuver.modeChange === 'dismount') return dismountText(language, maneuver);
  if (maneuver.modeChange === 'remount') {
    const riding = maneuverText(language, { ...maneuver, modeChange: undefined });
    return fill(locale.walk_bike.remount, { instruction: lowerFirst(language, riding) });
  }
  const type = otiType(maneuver);
  const { wayKind } = maneuver;
  const step = {
    maneuver: {
      type,
      ...(maneuver.modifier ? { modifier: maneuver.modifier } : {}),
      ...(maneuver.exit ? { exit: maneuver.exit } : {}),
      bearing_after: maneuver.bearingAfter,
    },
    name: wayKind ? locale.ways[wayKind] : maneuver.name,
    ref: maneuver.ref,
  };
  const sentences = locale.instructions?.[type];
  const replacement = sentences?.[maneuver.modifier ?? 'default'] ?? sentences?.default;
  const wayName = compiler.getWayName(language, step);
  const template = !wayName ? replacement?.default : wayKind ? (replacement?.way ?? replacement?.name) : replacement?.name;
  if (!template) return compiler.compile(language, step);
  return compiler.tokenize(language, template, {
    way_name: wayName,
    direction: compiler.directionFromDegree(language, maneuver.bearingAfter),
    exit_number: compiler.ordinalize(language, maneuver.exit ?? 1),
  });
}

/** The sentence announcing a maneuver ahead of it: the arrival reads as what is coming. */
export function announcedText(language: Language, maneuver: Maneuver): string {
  return maneuver.type === 'Arrive' ? locales[language].arrive_spoken : maneuverText(language, maneuver);
}

/** `X, then Y` for two maneuvers close together. */
export function linkedText(language: Language, first: string, second: string): string {
  return fill(locales[language].phrase.two_linked, { first, second: lowerFirst(language, second) });
}

/** `X, then, in 40 metres, Y`. */
export function linkedByDistanceText(language: Language, first: string, metres: number, second: string): string {
  return fill(locales[language].phrase.two_linked_by_distance, {
    first,
    distance: distanceText(language, metres),
    second: lowerFirst(language, second),
  });
}

/** `In 200 metres, turn left onto Euston Road`. */
export function inDistanceText(language: Language, metres: number, instruction: string): string {
  return fill(locales[language].phrase.one_in_distance, {
    distance: distanceText(language, metres),
    instruction: lowerFirst(language, instruction),
  });
}

/** Spoken distances, rounded as a navigator would say them. */
export function distanceText(language: Language, metres: number): string {
  const locale = locales[language];
  if (metres >= 950) {
    const kilometres = Math.round(metres / 100) / 10;
    if (kilometres === 1) return locale.distance.one_kilometre;
    return fill(locale.distance.kilometres, { n: String(kilometres).replace('.', locale.decimal_separator) });
  }
  const rounded = metres < 100 ? Math.max(10, Math.round(metres / 10) * 10) : Math.round(metres / 50) * 50;
  return fill(locale.distance.metres, { n: String(rounded) });
}

/** The longest distance up to `metres` that distanceText says exactly, so a cue placed there is true when spoken. */
export function speakableDistanceWithin(metres: number): number {
  const step = metres < 100 ? 10 : metres < 950 ? 50 : 100;
  return Math.max(step, Math.floor(metres / step) * step);
}

export function ssml(language: Language, text: string): string {
  return `<speak xml:lang="${locales[language].ssml_lang}"><prosody rate="1.08">${escapeXml(text)}</prosody></speak>`;
}

/** How far ahead a rider is told about a maneuver, by how fast they travel. */
export const ANNOUNCEMENT_DISTANCES: Record<Profile, { early: number; near: number; minimumGap: number }> = {
  // 15 km/h: about a minute ahead, then about 12 seconds ahead.
  cycling: { early: 250, near: 50, minimumGap: 100 },
  // 5 km/h: about 70 seconds ahead, then about 15 seconds ahead.
  walking: { early: 100, near: 20, minimumGap: 40 },
};
