// Limits shared by the function and the local server (pure, bundle-safe).

/** Largest assessment request body: a SOC code and a handful of factor names fits in far less. */
export const ASSESS_MAX_BODY_BYTES = 16 * 1024;

/**
 * Bytes of a request body nobody wants (rejected as too large, or never read: 404, 405, 415)
 * that are still read and dropped before the connection is reused or closed. A body left
 * half-read leaves the client's keep-alive connection undefined: on workerd the next request on
 * it hung, and Node's server reset it, losing the answer. Past this bound (an abusive upload) the
 * connection is cut instead.
 */
/** An MCP request body: a tools/call of assess with every task of an occupation fits in the assess cap; JSON-RPC framing adds little. */
export const MCP_MAX_BODY_BYTES = 2 * ASSESS_MAX_BODY_BYTES;
/** JSON-RPC messages in one MCP batch: each is a call whose cost the count budgets bound, so a batch multiplies it. */
export const MCP_MAX_BATCH = 4;
export const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * What one function request may parse when nothing is loaded yet (a cold instance): the bytes of
 * the shards it reads and the JSON values in them (parsing is most of a cold request's CPU, and a
 * value costs more than a byte of a string), so that a cold request stays within an edge
 * platform's smallest budget (10 ms of CPU per request, Cloudflare's free plan).
 * test/contract/function-budget.test.ts holds every route kind and every shard of the function to
 * it; a new shard or handler falls under it too.
 */
// The most a request reads is a partial match's 100 results (search.json, posting buckets, the
// typo shards a typo needs, search-unscored and search/titles when a query needs them, and the
// page shards its results lie in, each item a JSON string: one value) or an assessment with tasks
// (the most values). Set about 5% above the real data's most, so the test fails when a cold path
// grows.
export const COLD_REQUEST_BUDGET = { bytes: 580_000, values: 12_500 } as const;

/**
 * The most one shard may take as a string in memory (its characters, two bytes each when one is
 * past U+00FF): under V8's large-object size (128 KiB), past which each string, and the buffer it
 * is decoded from, is an allocation of its own, and fresh memory is slow to fill (reading a shard
 * just past the size costs about ten times one just under it).
 */
export const SHARD_MAX_BYTES = 120_000;

/**
 * Edit distances one query's typo lookups may compute, per index searched (search-query.ts stops
 * there, nearest word lengths first): the words a typo index lists, or those the ISCO-08 index's
 * scan meets, where a long query of unknown long words met thousands per word. No real query
 * comes near it (SEARCH_QUERY_BUDGET).
 */
export const TYPO_DISTANCE_BUDGET = 2_500;

/**
 * What one occupation search may expand to (counted by searchWork in search-query.ts): edit
 * distances computed for typos, vocabulary words it stands for, and name ids read from the
 * postings, over all its words and variants. On the real data the most over 1,200 generated
 * queries were 248 distances ("athletic trainerss"; a typo is looked up, so a scan of the
 * vocabulary coming back fails this), 110 candidates ("car"), 9,762 ids ("operators").
 */
export const SEARCH_QUERY_BUDGET = { distances: 300, candidates: 300, postings: 15_000 } as const;
