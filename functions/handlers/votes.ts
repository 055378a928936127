// GET and POST /api/v1/occupations/<soc_code>/votes: functions/votes.ts over the VoteStore the
// adapter passes in, with the occupation's card slug and the build's counts from the votes shard.
import type { VotesShard } from '../../build/contract/response-schemas.ts';
import type { RouteHandler } from '../route-handler.ts';
import type { ShardStore } from '../shard-store.ts';
import { votesEndpoint, type VoteOptions } from '../votes.ts';
import { notScored } from './not-found.ts';

export function voteHandlers({ shards, options }: { shards: ShardStore; options: VoteOptions }): { get: RouteHandler; post: RouteHandler } {
  const votes = votesEndpoint(
    options,
    async (soc) => {
      const all = (await shards.load<VotesShard>('votes')).occupations;
      const o = Object.hasOwn(all, soc) ? all[soc]! : null;
      return o && { slug: o[0], snapshot: { agree: o[1], too_high: o[2], too_low: o[3] } };
    },
    (soc) => notScored(shards, soc),
  );
  return {
    get: (req, _query, { route, params }) => votes.get(req, params.soc_code!, route),
    post: (req, _query, { params }, info) => votes.post(req, params.soc_code!, info.clientAddress ?? null),
  };
}
