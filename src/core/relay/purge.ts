import { Base64UrlPaddedCodec } from '@nats-io/obj';
import type { Relay } from './connection.js';
import {
  BLOBS_STORE,
  EVENTS_STREAM,
  EVENTS_SUBJECT_PREFIX,
  HANDOFF_STREAM,
  HANDOFF_SUBJECT_PREFIX,
  HEADS_BUCKET,
  PRESENCE_BUCKET,
  RECEIPTS_BUCKET,
  TASKS_BUCKET,
  durableName,
} from './resources.js';

export interface PurgeReport {
  handoffMessages: number;
  consumers: number;
  receipts: number;
  blobs: number;
  heads: number;
  tasks: number;
  presence: number;
  events: number;
}

/** Deletes every key, message and object of this device (including history and tombstones, by subject). */
export async function purgeDevice(relay: Relay, deviceId: string): Promise<PurgeReport> {
  const { jsm } = relay;
  const purge = async (stream: string, filter: string) => (await jsm.streams.purge(stream, { filter }).catch(() => ({ purged: 0 }))).purged;
  const report: PurgeReport = { handoffMessages: 0, consumers: 0, receipts: 0, blobs: 0, heads: 0, tasks: 0, presence: 0, events: 0 };

  report.handoffMessages += await purge(HANDOFF_STREAM, `${HANDOFF_SUBJECT_PREFIX}.${deviceId}.*`);
  report.handoffMessages += await purge(HANDOFF_STREAM, `${HANDOFF_SUBJECT_PREFIX}.*.${deviceId}`);
  report.events += await purge(EVENTS_STREAM, `${EVENTS_SUBJECT_PREFIX}.*.${deviceId}`);
  if (await jsm.consumers.delete(HANDOFF_STREAM, durableName(deviceId)).catch(() => false)) report.consumers++;

  // Receipt keys are <from>.<to>.<handoff>: this device on either side.
  report.receipts += await purge(`KV_${RECEIPTS_BUCKET}`, `$KV.${RECEIPTS_BUCKET}.${deviceId}.>`);
  report.receipts += await purge(`KV_${RECEIPTS_BUCKET}`, `$KV.${RECEIPTS_BUCKET}.*.${deviceId}.>`);
  report.presence += await purge(`KV_${PRESENCE_BUCKET}`, `$KV.${PRESENCE_BUCKET}.${deviceId}`);

  // Heads and tasks name the device in their value (holder / asker): any key whose history mentions it goes.
  for (const [bucket, field] of [[HEADS_BUCKET, 'heads'], [TASKS_BUCKET, 'tasks']] as const) {
    const kv = await relay.kv(bucket);
    const keys: string[] = [];
    for await (const key of await kv.keys()) keys.push(key);
    for (const key of keys) {
      let mentions = false;
      for await (const entry of await kv.history({ key })) if (entry.string().includes(deviceId)) mentions = true;
      if (mentions) report[field] += await purge(`KV_${bucket}`, `$KV.${bucket}.${key}`);
    }
  }

  // Blob names are <from>.<to>.<handoff> or archive.<device>.<session>.
  const blobs = await relay.blobs();
  for (const info of await blobs.list()) {
    if (!info.name.split('.').includes(deviceId)) continue;
    await blobs.delete(info.name);
    await purge(`OBJ_${BLOBS_STORE}`, `$O.${BLOBS_STORE}.M.${Base64UrlPaddedCodec.encode(info.name)}`);
    report.blobs++;
  }
  return report;
}
