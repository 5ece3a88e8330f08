/**
 * Text written into XML documents the platform produces (SSML cues, GPX files). Street names and
 * waypoint names come from OpenStreetMap and riders: whatever they hold must stay text, never
 * markup, and never a character XML 1.0 forbids (C0 controls other than tab and line breaks,
 * lone surrogates, U+FFFE, U+FFFF), which would make the whole document unreadable.
 */

const MARKUP: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

// eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are exactly what it matches
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` as XML character data or an attribute value (either quote): markup escaped, forbidden characters left out. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHARACTER, '').replace(/[&<>"']/g, (character) => MARKUP[character]!);
}
