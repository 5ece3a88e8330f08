/**
 * Control characters (Unicode category Cc: C0 U+0000-U+001F, DEL, C1 U+0080-U+009F) in text
 * people send and others read. In a terminal they are commands: ESC starts sequences that recolour
 * or rewrite the screen, CR and LF forge lines of a log. Text the platform stores refuses them
 * (`hasControlCharacters`), and text printed for an operator shows them escaped
 * (`escapeControlCharacters`), whatever was stored before the rule.
 */

const CONTROL_CHARACTER = /\p{Cc}/gu;

/** Whether `text` holds a control character other than those in `allowed` (e.g. "\n\t"). */
export function hasControlCharacters(text: string, allowed = ''): boolean {
  for (const [character] of text.matchAll(CONTROL_CHARACTER)) if (!allowed.includes(character)) return true;
  return false;
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character written as an escape (`\n`, `\t`, `\u001b`), safe to print. */
export function escapeControlCharacters(text: string): string {
  return text.replace(
    CONTROL_CHARACTER,
    (character) => NAMED_ESCAPES[character] ?? `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}
