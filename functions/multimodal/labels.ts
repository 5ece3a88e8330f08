import type { Language } from '../../core/language.ts';
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };

/**
 * Option and leg labels in the rider's language (spec 4.2: `language` applies to leg labels and
 * option labels; enumerated values such as `end_kind` and `bike_type` never change). System,
 * station and stop names are never translated. The docked e-bike option's name is the spec's
 * `{system name} E-bike` in every language.
 */

interface Labels {
  option: { personal: string; docked: string; docked_ebike: string; dockless: string };
  end: { destination: string; stop: string; park_bike: string; bike: string; ebike: string; end_ride: string };
}

const locales: Record<Language, Labels> = { en, es };

const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

export const optionName = (language: Language, kind: keyof Labels['option'], system = ''): string => fill(locales[language].option[kind], { system });

export const endLabel = (language: Language, kind: keyof Labels['end'], values: { n?: number; system?: string } = {}): string =>
  fill(locales[language].end[kind], values);
