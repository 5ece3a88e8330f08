import { EBIKE_SPEED_MPS } from '../../../core/routing/costing/speeds.ts';
import type { LoadedSystem } from '../../bikeshare/loader.ts';
import type { MultiModalOption } from '../response.ts';
import type { Trip } from '../trip.ts';
import { dockedRide, type DockedBike } from './docked.ts';

/** The docked e-bike option (spec 4.2): the docked ride (docked.ts) from a station with an e-bike, at e-bike speed (spec 8: 22 km/h). */

const EBIKE: DockedBike = {
  type: 'docked_ebike',
  electric: true,
  speed: EBIKE_SPEED_MPS,
  available: (station) => (station.num_ebikes_available ?? 0) > 0,
};

export const dockedEbikeOption = (trip: Trip, system: LoadedSystem): MultiModalOption | null => dockedRide(trip, system, EBIKE);
