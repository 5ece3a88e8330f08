import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { compactVerify, importJWK } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import type * as Kms from '@aws-sdk/client-kms';
import { kmsCustody } from '../../functions/oauth/kms-custody.ts';

/**
 * Signing keys in KMS custody, against a stand-in for KMS that answers CreateKey, GetPublicKey
 * and Sign the way KMS does (SPKI public keys, DER-encoded ECDSA signatures).
 */
vi.mock('@aws-sdk/client-kms', async (importOriginal) => {
  const actual = await importOriginal<typeof Kms>();
  const keys = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();
  class KMSClient {
    async send(command: { input: Record<string, unknown> }) {
      if (command instanceof actual.CreateKeyCommand) {
        expect(command.input).toMatchObject({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
        const arn = `arn:aws:kms:us-east-1:000000000000:key/${keys.size}`;
        keys.set(arn, generateKeyPairSync('ec', { namedCurve: 'P-256' }));
        return { KeyMetadata: { Arn: arn } };
      }
      const key = keys.get(command.input.KeyId as string)!;
      if (command instanceof actual.GetPublicKeyCommand) return { PublicKey: key.publicKey.export({ format: 'der', type: 'spki' }) };
      if (command instanceof actual.SignCommand) {
        expect(command.input).toMatchObject({ MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' });
        return { Signature: sign('sha256', command.input.Message as Buffer, { key: key.privateKey, dsaEncoding: 'der' }) };
      }
      throw new Error('unexpected KMS command');
    }
  }
  return { ...actual, KMSClient };
});

describe('KMS key custody', () => {
  it('creates a P-256 key and signs JWS that verify with its published public key', async () => {
    const material = await kmsCustody.create();
    expect(material.private_jwk).toBeUndefined();
    expect(material.kms_key_id).toMatch(/^arn:aws:kms:/);
    expect(material.public_jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    const record = { kid: 'k1', status: 'current' as const, created_at: new Date().toISOString(), ...material };
    const input = `${Buffer.from('{"alg":"ES256","kid":"k1"}').toString('base64url')}.${Buffer.from('{"sub":"rider"}').toString('base64url')}`;
    for (let round = 0; round < 20; round++) {
      const signature = await kmsCustody.sign(record, Buffer.from(input));
      const verified = await compactVerify(`${input}.${signature.toString('base64url')}`, await importJWK(material.public_jwk, 'ES256'));
      expect(new TextDecoder().decode(verified.payload)).toBe('{"sub":"rider"}');
    }
  });
});
