/**
 * A rider's profile as the riders table stores it (spec 2.1): written by profiles.ts, read there
 * and by the name search (name-search.ts).
 */

export interface RiderProfile {
  idp_user_id: string;
  /** Stored trimmed and lower-case, which is how email sign-in finds it. */
  email: string;
  name: string;
  image_url: string | null;
  home_address: string | null;
  home_coords: string | null;
  work_address: string | null;
  work_coords: string | null;
  date_registered: string;
}
