import { createPublicKey } from 'node:crypto';
import { CreateKeyCommand, GetPublicKeyCommand, KMSClient, ScheduleKeyDeletionCommand, SignCommand } from '@aws-sdk/client-kms';
import type { JWK } from 'jose';
import { SIGNING_KEY_TAG } from '../../platform/resources.ts';
import type { KeyCustody, SigningKeyRecord } from './key-custody.ts';

/**
 * Signing keys held by AWS KMS: asymmetric `ECC_NIST_P256` keys for `SIGN_VERIFY`. The private
 * key never leaves KMS's HSMs, every signature is an audited `kms:Sign` call that IAM grants to
 * the token endpoint alone, and a key can be disabled in an emergency. Tokens are issued only at
 * the token endpoint, so one KMS call per token costs little; verification uses the public key.
 */

/** Days KMS waits before deleting a retired key, during which the deletion can be cancelled. */
const DELETION_WINDOW_DAYS = 7;

let client: KMSClient | undefined;
const kms = (): KMSClient => (client ??= new KMSClient({}));

/**
 * KMS returns ECDSA signatures DER-encoded (a SEQUENCE of two INTEGERs); JWS wants the two
 * 32-byte integers side by side (RFC 7518 3.4).
 */
export function derToJoseSignature(der: Uint8Array, size = 32): Buffer {
  const bytes = Buffer.from(der);
  let offset = 0;
  const expect = (tag: number) => {
    if (bytes[offset++] !== tag) throw new Error('Malformed DER ECDSA signature');
  };
  const length = () => {
    let value = bytes[offset++]!;
    if (value & 0x80) {
      const count = value & 0x7f;
      value = 0;
      for (let index = 0; index < count; index++) value = (value << 8) | bytes[offset++]!;
    }
    return value;
  };
  const integer = () => {
    expect(0x02);
    const byteCount = length();
    const end = offset + byteCount;
    let value = bytes.subarray(offset, end);
    offset = end;
    while (value.length > size && value[0] === 0) value = value.subarray(1);
    if (value.length > size) throw new Error('Malformed DER ECDSA signature');
    return Buffer.concat([Buffer.alloc(size - value.length), value]);
  };
  expect(0x30);
  length();
  const r = integer();
  const s = integer();
  return Buffer.concat([r, s]);
}

export const kmsCustody: KeyCustody = {
  async create() {
    const created = await kms().send(
      new CreateKeyCommand({
        KeySpec: 'ECC_NIST_P256',
        KeyUsage: 'SIGN_VERIFY',
        Description: 'Spoke OAuth token signing key (ES256)',
        Tags: [SIGNING_KEY_TAG],
      }),
    );
    const keyId = created.KeyMetadata!.Arn!;
    const { PublicKey } = await kms().send(new GetPublicKeyCommand({ KeyId: keyId }));
    const jwk = createPublicKey({ key: Buffer.from(PublicKey!), format: 'der', type: 'spki' }).export({ format: 'jwk' }) as JWK;
    return { public_jwk: jwk, kms_key_id: keyId };
  },
  async sign(record: SigningKeyRecord, signingInput: Buffer) {
    const { Signature } = await kms().send(
      new SignCommand({ KeyId: record.kms_key_id!, Message: signingInput, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' }),
    );
    return derToJoseSignature(Signature!);
  },
  async retire(record: SigningKeyRecord) {
    await kms().send(new ScheduleKeyDeletionCommand({ KeyId: record.kms_key_id!, PendingWindowInDays: DELETION_WINDOW_DAYS }));
  },
};
