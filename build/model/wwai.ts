// Microsoft "Working with AI" (Tomlinson et al. 2025) as task evidence: per IWA, the share of its
// conversation mentions in which the AI performs the activity (AI action) rather than helping a
// person perform it (user goal); a task takes the mean over the IWAs its DWA links reach. Pure.
import type { WwaiIwa } from './inputs.ts';

export interface WwaiIndex {
  /** AI-action share W = share_ai / (share_user + share_ai) by IWA id, for IWAs with enough mentions. */
  byIwa: Map<string, number>;
  /** IWAs in the file whose share_user + share_ai is below the minimum: no W (too few conversations). */
  belowMinShare: number;
}

/** W per IWA; IWAs with share_user + share_ai below minShare have none (counted, not guessed). */
export function wwaiIndex(rows: readonly WwaiIwa[], minShare: number): WwaiIndex {
  const byIwa = new Map<string, number>();
  let belowMinShare = 0;
  for (const r of rows) {
    const total = r.share_user + r.share_ai;
    if (total < minShare || total <= 0) belowMinShare++;
    else byIwa.set(r.iwa_id, r.share_ai / total);
  }
  return { byIwa, belowMinShare };
}

/** A task's W: the unweighted mean over its distinct IWAs that have one; null when none has. */
export function taskWwai(iwas: readonly string[], byIwa: ReadonlyMap<string, number>): number | null {
  let sum = 0;
  let n = 0;
  for (const iwa of new Set(iwas)) {
    const w = byIwa.get(iwa);
    if (w === undefined) continue;
    sum += w;
    n++;
  }
  return n > 0 ? sum / n : null;
}
