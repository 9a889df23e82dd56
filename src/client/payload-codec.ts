/**
 * Encrypts every payload Temporal stores (workflow inputs, activity inputs and results, memos) with
 * AES-256-GCM, so history holds no readable arguments, transcripts or results. Enabled when
 * AGENT_PAYLOAD_KEY is set (any secret text; the key is its SHA-256) on every client and worker.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type DataConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';
import { AgentError } from '../wire/agent-error.ts';

const { temporal } = proto;

const ENCODING = 'binary/encrypted';
const KEY_ID = 'encryption-key-id';

export class AesGcmPayloadCodec implements PayloadCodec {
  private readonly key: Buffer;
  private readonly keyId: string;

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
    this.keyId = createHash('sha256').update(this.key).digest('hex').slice(0, 12);
  }

  encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(
      payloads.map((payload) => {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', this.key, iv);
        const plain = temporal.api.common.v1.Payload.encode(payload).finish();
        const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
        return { metadata: { [METADATA_ENCODING_KEY]: Buffer.from(ENCODING), [KEY_ID]: Buffer.from(this.keyId) }, data };
      }),
    );
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(
      payloads.map((payload) => {
        if (Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? []).toString() !== ENCODING) return payload;
        const keyId = Buffer.from(payload.metadata?.[KEY_ID] ?? []).toString();
        if (keyId !== this.keyId) {
          throw new PayloadKeyError(`The run's payloads were encrypted with another AGENT_PAYLOAD_KEY (key id ${keyId}; this one's is ${this.keyId}): set the key its workers use.`);
        }
        const data = Buffer.from(payload.data ?? []);
        const decipher = createDecipheriv('aes-256-gcm', this.key, data.subarray(0, 12));
        decipher.setAuthTag(data.subarray(data.length - 16));
        const plain = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
        return temporal.api.common.v1.Payload.decode(plain);
      }),
    );
  }
}

/** A payload encrypted with another AGENT_PAYLOAD_KEY than this process's. */
export class PayloadKeyError extends AgentError {
  override readonly name = 'PayloadKeyError';
  readonly code = 'PayloadKey';
}

/** What an encrypted payload reads as in a client without the key (`readEncryptedAsMarkers`). */
export interface EncryptedMarker {
  $encrypted: string;
}

export function isEncryptedMarker(value: unknown): value is EncryptedMarker {
  return typeof value === 'object' && value !== null && typeof (value as { $encrypted?: unknown }).$encrypted === 'string';
}

/**
 * A client without AGENT_PAYLOAD_KEY: an encrypted payload reads as `{"$encrypted": "<key id>"}` instead of
 * failing the whole call, so lists still show every run (their clear-text search attributes, the encrypted
 * fields as such). Never for a worker: a run must not go on with a marker for its input.
 */
class EncryptedMarkerCodec implements PayloadCodec {
  encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(payloads);
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.resolve(
      payloads.map((payload) => {
        if (Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? []).toString() !== ENCODING) return payload;
        const marker: EncryptedMarker = { $encrypted: Buffer.from(payload.metadata?.[KEY_ID] ?? []).toString() };
        return { metadata: { [METADATA_ENCODING_KEY]: Buffer.from('json/plain') }, data: Buffer.from(JSON.stringify(marker)) };
      }),
    );
  }
}

/**
 * The data converter every client and worker of this project uses. `readEncryptedAsMarkers`: a client's, which
 * without a key reads encrypted payloads as markers (EncryptedMarkerCodec) rather than failing.
 */
export function agentDataConverter(secret = process.env.AGENT_PAYLOAD_KEY, options: { readEncryptedAsMarkers?: boolean } = {}): DataConverter | undefined {
  if (secret) return { payloadCodecs: [new AesGcmPayloadCodec(secret)] };
  return options.readEncryptedAsMarkers ? { payloadCodecs: [new EncryptedMarkerCodec()] } : undefined;
}
