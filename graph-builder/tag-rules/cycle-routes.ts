import { CYCLE_ROUTE_NETWORKS, referencedRouteName } from '../../core/graph/cycle-route-names.ts';
import type { Tags } from '../osm/types.ts';

/** Signed cycle routes as tagged on the way itself; route relations the way belongs to count later (`routeMembershipRule`, safety.ts). */


/** Signed cycle routes tagged on the way itself (lcn/rcn/ncn/icn=yes and their *_ref names). */
export function cycleRouteTagRule(tags: Tags): { signed: boolean; names: string[] } {
  const names: string[] = [];
  let signed = false;
  for (const network of CYCLE_ROUTE_NETWORKS) {
    if (tags[network] === 'yes') signed = true;
    const ref = tags[`${network}_ref`];
    if (ref) {
      signed = true;
      names.push(referencedRouteName(network, ref));
    }
  }
  return { signed, names };
}
