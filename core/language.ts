/**
 * The languages the platform speaks (spec 4.1, 4.2: instructions, spoken cues and labels). A
 * regional tag such as `es-MX` or `en_GB` is read as its base language.
 */

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The base language of a tag (`es-MX` -> `es`), or null when it is not one the platform speaks. */
export function baseLanguage(tag: string): Language | null {
  const base = tag.trim().toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : null;
}
