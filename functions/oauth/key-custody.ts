import type { JWK } from 'jose';

/**
 * A signing key as the key table stores it, and the one interface behind which its private key
 * lives (signing-keys.ts): KMS in AWS (kms-custody.ts), a private JWK in the local platform's state.
 */

export type SigningKeyStatus = 'current' | 'previous' | 'retired';

export interface SigningKeyRecord {
  kid: string;
  status: SigningKeyStatus;
  public_jwk: JWK;
  created_at: string;
  /** Local custody only. */
  private_jwk?: JWK;
  /** KMS custody only: the key's ARN. */
  kms_key_id?: string;
}

export interface NewKeyMaterial {
  public_jwk: JWK;
  private_jwk?: JWK;
  kms_key_id?: string;
}

export interface KeyCustody {
  /** A new P-256 key pair; what the key table stores of it. */
  create(): Promise<NewKeyMaterial>;
  /** The ES256 signature (raw r || s, 64 bytes, RFC 7518 3.4) of the JWS signing input. */
  sign(record: SigningKeyRecord, signingInput: Buffer): Promise<Buffer>;
  /** Destroys private material a retired key no longer needs. */
  retire(record: SigningKeyRecord): Promise<void>;
}
