// Typings of messages.js for the tests that read the page's words; the page itself is plain JavaScript.

type Message = string | ((values: Record<string, unknown>) => string);

export declare const MESSAGES: { readonly en: Readonly<Record<string, Message>>; readonly es: Readonly<Record<string, Message>> };
export declare const CITY_NAMES: { readonly en: Readonly<Record<string, string>>; readonly es: Readonly<Record<string, string>> };
