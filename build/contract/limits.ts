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
export const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;
