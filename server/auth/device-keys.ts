/**
 * Device keys at rest (issue #21): each device's server key is stored wrapped with AES-256-GCM
 * under a key-encryption key derived (HKDF-SHA-256) from the server's secret, with the app, user
 * and device as additional data. A database dump alone opens no vault, and a wrapped key copied to
 * another device's or user's row does not unwrap there.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** AES-256: the size of a device key. */
export const DEVICE_KEY_BYTES = 32;
/** Format byte first, so a later scheme can be told apart from this one. */
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface KeyPlace {
  app: string;
  userId: string;
  deviceId: string;
}

/** The key-encryption key: its own derivation, never the JWT signing key itself. */
export function deviceKek(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'passage', 'device-key-kek/v1', 32));
}

const aadOf = (place: KeyPlace) => Buffer.from(`${place.app}|${place.userId}|${place.deviceId}`);

export function newDeviceKey(): Uint8Array {
  return new Uint8Array(randomBytes(DEVICE_KEY_BYTES));
}

/** format | iv | tag | ciphertext. */
export function wrapDeviceKey(kek: Buffer, place: KeyPlace, key: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', kek, iv).setAAD(aadOf(place));
  const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
  return new Uint8Array(Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), sealed]));
}

/** Throws when the bytes were not wrapped for this place under this key (tampered, moved, other secret). */
export function unwrapDeviceKey(kek: Buffer, place: KeyPlace, wrapped: Uint8Array): Uint8Array {
  const bytes = Buffer.from(wrapped);
  if (bytes[0] !== FORMAT || bytes.length !== 1 + IV_BYTES + TAG_BYTES + DEVICE_KEY_BYTES) throw new Error('Unknown device key format');
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', kek, iv).setAAD(aadOf(place)).setAuthTag(tag);
  return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]));
}
