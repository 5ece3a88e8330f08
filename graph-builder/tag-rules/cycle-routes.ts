import type { Tags } from '../osm/types.ts';

/** Signed cycle routes as tagged on the way itself; route relations the way belongs to count later (`routeMembershipRule`, safety.ts). */

const ROUTE_NETWORKS = ['icn', 'ncn', 'rcn', 'lcn'].map((network) => ({ key: network, refKey: `${network}_ref`, prefix: network.toUpperCase() }));

/** Signed cycle routes tagged on the way itself (lcn/rcn/ncn/icn=yes and their *_ref names). */
export function cycleRouteTagRule(tags: Tags): { signed: boolean; names: string[] } {
  const names: string[] = [];
  let signed = false;
  for (const { key, refKey, prefix } of ROUTE_NETWORKS) {
    if (tags[key] === 'yes') signed = true;
    const ref = tags[refKey];
    if (ref) {
      signed = true;
      names.push(`${prefix} ${ref}`);
    }
  }
  return { signed, names };
}
