/**
 * The names of signed cycle routes tagged on ways by their network's reference alone
 * (`lcn_ref=6`): stored in the graph as the network's key in capitals and the reference ("LCN 6",
 * "NCN 4"), and turned into a rider's words where a sentence names them. A route relation's own
 * `name` is stored as it is.
 */

/** OpenStreetMap's cycle networks, widest first: international, national, regional, local. */
export const CYCLE_ROUTE_NETWORKS = ['icn', 'ncn', 'rcn', 'lcn'] as const;
export type CycleRouteNetwork = (typeof CYCLE_ROUTE_NETWORKS)[number];

/** The stored name of a route known only by its network and reference. */
export const referencedRouteName = (network: CycleRouteNetwork, ref: string): string => `${network.toUpperCase()} ${ref}`;

const REFERENCED = new RegExp(`^(${CYCLE_ROUTE_NETWORKS.map((network) => network.toUpperCase()).join('|')}) (.+)$`);

/** The network and reference of a stored name made by `referencedRouteName`; null for a route's own name. */
export function parseReferencedRouteName(name: string): { network: CycleRouteNetwork; ref: string } | null {
  const match = REFERENCED.exec(name);
  return match ? { network: match[1]!.toLowerCase() as CycleRouteNetwork, ref: match[2]! } : null;
}
