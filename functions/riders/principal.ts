import type { Principal, RiderPrincipal } from '../auth/principal.ts';

/**
 * The rider behind a request to a rider endpoint. The HTTP chain admits only rider principals
 * there (functions/auth/admission.ts), so anything else reaching a handler is a wiring mistake.
 */
export function riderOf(principal: Principal | null): RiderPrincipal {
  if (principal?.kind !== 'rider') throw new Error('A rider endpoint was reached without a rider principal');
  return principal;
}
