// The occupation list's sort orders and filter keys, precomputed by the build (one shard, read
// once per instance) so that a sorted or filtered page costs the function a lookup, not a sort of
// every occupation per request. Pure: the build makes the shard, the function answers from it.
import type { RiskTier } from '../model/record-schemas.ts';

/** `score` lowest first, `-score` highest first, `title` A to Z, `employment` most workers first (none published: last). */
export const LIST_SORTS = ['score', '-score', 'title', 'employment'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
/** The model's tiers (RiskTier), listed here since the function bundle takes no full zod schema. */
export const LIST_TIERS = ['low', 'medium', 'high'] as const satisfies readonly RiskTier[];
/** The shard's name. */
export const LIST_ORDERS_SHARD = 'list-orders';

/** What the build knows of an occupation at list position i (SOC-code order). */
export interface OrderInput {
  title: string;
  final_score: number;
  risk_tier: (typeof LIST_TIERS)[number];
  employment: number | null;
  major_group: string;
}

export interface ListOrders {
  /** Per sort, the list positions in that order; ties keep SOC-code order. */
  orders: Record<ListSort, number[]>;
  /** One letter per position: the tier's initial (l, m, h). */
  tiers: string;
  /** Two digits per position: the SOC major group. */
  groups: string;
}

const byKey = <T>(items: readonly OrderInput[], key: (o: OrderInput) => T, cmp: (a: T, b: T) => number): number[] =>
  items.map((_, i) => i).sort((a, b) => cmp(key(items[a]!), key(items[b]!)) || a - b);

const titleKey = (o: OrderInput) => o.title.toLowerCase();

export function buildListOrders(items: readonly OrderInput[]): ListOrders {
  return {
    orders: {
      score: byKey(items, (o) => o.final_score, (a, b) => a - b),
      '-score': byKey(items, (o) => o.final_score, (a, b) => b - a),
      title: byKey(items, titleKey, (a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      employment: byKey(items, (o) => o.employment ?? -1, (a, b) => b - a),
    },
    tiers: items.map((o) => o.risk_tier[0]).join(''),
    groups: items.map((o) => o.major_group).join(''),
  };
}

export interface ListSelection {
  sort?: ListSort;
  tier?: string;
  major_group?: string;
}

/** Each sort's rank of every position, made once per instance (to order a search's matches). */
const ranks = new WeakMap<number[], Int32Array>();
function rankOf(order: number[]): Int32Array {
  let r = ranks.get(order);
  if (!r) {
    r = new Int32Array(order.length);
    order.forEach((p, k) => (r![p] = k));
    ranks.set(order, r);
  }
  return r;
}

/**
 * The positions a list or search page is cut from: `base` (a search's ranked matches; the whole
 * list when absent) reordered by `sort` and kept where tier and major group match.
 */
export function selectPositions(lists: ListOrders, sel: ListSelection, base?: ArrayLike<number>): number[] {
  let positions: number[];
  if (base === undefined) positions = sel.sort ? lists.orders[sel.sort] : Array.from({ length: lists.tiers.length }, (_, i) => i);
  else if (sel.sort) {
    const rank = rankOf(lists.orders[sel.sort]);
    positions = Array.from(base).sort((a, b) => rank[a]! - rank[b]!);
  } else positions = Array.from(base);
  const tier = sel.tier?.[0];
  const group = sel.major_group;
  if (tier === undefined && group === undefined) return positions;
  return positions.filter((p) => (tier === undefined || lists.tiers[p] === tier) && (group === undefined || lists.groups.startsWith(group, 2 * p)));
}
