import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cities, type CityId } from '../../core/cities/index.ts';
import { sharedDataPath } from '../../lib/local/paths.ts';
import { joinStations, readFeedDocument, readStationInformation, readStationStatus, readVehicles } from '../../functions/bikeshare/gbfs.ts';
import { emptySnapshot } from '../../functions/bikeshare/ingest.ts';
import type { BikeShareSnapshot } from '../../functions/bikeshare/model.ts';
import { defaultFeedSources } from '../../platform/bike-share-feeds.ts';
import { readBikePoints } from '../../functions/bikeshare/tfl-bikepoint.ts';

/** Snapshots built in memory from the recorded feeds, for tests of the readers' side. */

const recorded = (path: string): unknown => JSON.parse(readFileSync(join(sharedDataPath(), 'gbfs', path), 'utf8'));

function empty(city: CityId, systemId: string): BikeShareSnapshot {
  const system = cities[city].bikeShare.find((candidate) => candidate.id === systemId)!;
  return emptySnapshot({ city, system }, defaultFeedSources[systemId]!);
}

function gbfsStations(folder: string) {
  const status = readFeedDocument('station_status', recorded(`${folder}/station_status.json`));
  const information = readStationInformation(readFeedDocument('station_information', recorded(`${folder}/station_information.json`)), 'en');
  return joinStations(information.stations, readStationStatus(status).statuses, [], status.last_updated).stations;
}

export function recordedSnapshot(systemId: 'citi-bike' | 'bay-wheels' | 'santander-cycles'): BikeShareSnapshot {
  switch (systemId) {
    case 'citi-bike':
      return { ...empty('new-york', systemId), stations: gbfsStations('citi-bike/2024-10-02T1903Z') };
    case 'bay-wheels': {
      const vehicles = readVehicles(readFeedDocument('free_bike_status', recorded('bay-wheels/2020-05-22T1958Z/free_bike_status.json')), []).vehicles;
      return { ...empty('sf-bay', systemId), stations: gbfsStations('bay-wheels/2023-07-19T1906Z'), vehicles };
    }
    case 'santander-cycles':
      return { ...empty('london', systemId), stations: readBikePoints(recorded('santander-cycles-london/2026-02-22/BikePoint.json')).stations };
  }
}
