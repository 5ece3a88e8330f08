import { hasControlCharacters } from '../../core/control-characters.ts';
import { editableProfileFields, MAX_NAME_CHARACTERS, readOnlyProfileFields, type EditableProfileField, type ProfileChanges } from './profiles.ts';
import { bucketImageStore, isStoredImageOf, type ImageStore } from '../images/storage.ts';

/**
 * The rules of a profile update (spec 4.6, PATCH /user/). Every field is optional and only the
 * fields sent change. Problems are collected per field, as the spec's validation body wants:
 * an object mapping each field to its messages.
 */

export const MAX_ADDRESS_CHARACTERS = 200;
const MAX_COORDS_CHARACTERS = 64;

export type FieldMessages = Record<string, string[]>;

export type ProfileUpdateParse = { ok: true; changes: ProfileChanges; fields: EditableProfileField[] } | { ok: false; messages: FieldMessages };

const characters = (text: string): number => Array.from(text).length;
const NUMBER = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
const COORDS_PATTERN = new RegExp(`^(${NUMBER}),(${NUMBER})$`);

/** `longitude,latitude` in range; returned as sent, without spaces around the comma. */
export function parseCoords(value: string): { coords: string } | { error: string } {
  const compact = value.trim().replace(/\s*,\s*/, ',');
  if (compact.length > MAX_COORDS_CHARACTERS) return { error: `Must be at most ${MAX_COORDS_CHARACTERS} characters.` };
  const match = COORDS_PATTERN.exec(compact);
  if (!match) return { error: 'Must be "longitude,latitude", two decimal numbers separated by a comma.' };
  const longitude = Number(match[1]);
  const latitude = Number(match[2]);
  if (longitude < -180 || longitude > 180) return { error: 'Longitude must be between -180 and 180.' };
  if (latitude < -90 || latitude > 90) return { error: 'Latitude must be between -90 and 90.' };
  return { coords: compact };
}

function checkField(field: EditableProfileField, value: unknown, isOwnImage: (url: string) => boolean): { value: string | null } | { error: string } {
  if (value === null) return field === 'name' ? { error: 'This field may not be null.' } : { value: null };
  if (typeof value !== 'string') return { error: field === 'name' ? 'Must be a string.' : 'Must be a string or null.' };
  switch (field) {
    case 'name': {
      const name = value.trim().replace(/\s+/gu, ' ');
      if (!name) return { error: 'May not be blank.' };
      if (hasControlCharacters(name)) return { error: 'May not contain control characters.' };
      if (characters(name) > MAX_NAME_CHARACTERS) return { error: `Must be at most ${MAX_NAME_CHARACTERS} characters.` };
      return { value: name };
    }
    case 'home_address':
    case 'work_address': {
      const address = value.trim();
      if (hasControlCharacters(address, '\n\t')) return { error: 'May not contain control characters.' };
      if (characters(address) > MAX_ADDRESS_CHARACTERS) return { error: `Must be at most ${MAX_ADDRESS_CHARACTERS} characters.` };
      return { value: address || null };
    }
    case 'home_coords':
    case 'work_coords': {
      const parsed = parseCoords(value);
      return 'error' in parsed ? parsed : { value: parsed.coords };
    }
    case 'image_url':
      return isOwnImage(value) ? { value } : { error: 'Must be null or the URL of a photo uploaded with POST /user/upload-photo/.' };
  }
}

/**
 * Checks an update body (a JSON object) from `riderId` field by field. `image_url` must name an
 * image that rider uploaded and that is still stored (not another rider's, not one never written).
 */
export async function checkProfileUpdate(riderId: string, body: Record<string, unknown>, store: ImageStore = bucketImageStore): Promise<ProfileUpdateParse> {
  const imageUrl = Object.hasOwn(body, 'image_url') ? body.image_url : undefined;
  const ownImage = typeof imageUrl === 'string' && (await isStoredImageOf(imageUrl, riderId, store));
  return parseProfileUpdate(body, (url) => ownImage && url === imageUrl);
}

function parseProfileUpdate(body: Record<string, unknown>, isOwnImage: (url: string) => boolean): ProfileUpdateParse {
  // Keyed by the names the client sent: no prototype, so `__proto__` is a field name like any other.
  const messages: FieldMessages = Object.create(null);
  const changes: Record<string, string | null> = Object.create(null);
  const fields: EditableProfileField[] = [];
  for (const [field, value] of Object.entries(body)) {
    if ((readOnlyProfileFields as readonly string[]).includes(field)) {
      messages[field] = ['This field is read-only.'];
      continue;
    }
    if (!(editableProfileFields as readonly string[]).includes(field)) {
      messages[field] = [`Unknown field. The fields that can be changed are ${editableProfileFields.join(', ')}.`];
      continue;
    }
    const checked = checkField(field as EditableProfileField, value, isOwnImage);
    if ('error' in checked) messages[field] = [checked.error];
    else {
      changes[field] = checked.value;
      fields.push(field as EditableProfileField);
    }
  }
  if (Object.keys(messages).length > 0) return { ok: false, messages };
  return { ok: true, changes: changes as ProfileChanges, fields };
}
