import { setTimeout as sleep } from 'node:timers/promises';
import { implementTool } from './define-tool.ts';
import { scanFilesContract } from './contracts.ts';

const REPORT_EVERY = 200;

/** A long tool: "scans" N files at a fixed pace, reports progress, and stops as soon as its signal aborts. */
export const scanFiles = implementTool(scanFilesContract, async ({ files, msPerFile }, ctx) => {
  const batch = Math.max(1, Math.round(20 / Math.max(msPerFile, 0.01)));
  for (let scanned = 0; scanned < files; ) {
    const next = Math.min(files, scanned + batch);
    // Rejects with an AbortError the moment the run is cancelled.
    await sleep((next - scanned) * msPerFile, undefined, { signal: ctx.signal });
    if (Math.floor(next / REPORT_EVERY) > Math.floor(scanned / REPORT_EVERY) || next === files) ctx.progress(`scanned ${next} of ${files} files`);
    scanned = next;
  }
  return `Scanned ${files} files: no problems found.`;
});
